//! A CRD conversion webhook on the Scheme: [`Codec::review`] answers the `ConversionReview`
//! (apiextensions.k8s.io/v1) the API server sends when a client asks for a version of a custom
//! resource other than the stored one. Each object goes through the hub as every other
//! conversion does (external -> internal -> external), so a controller that already has the
//! generated conversions serves its CRD's `conversion.strategy: Webhook` with them; kube-rs has no
//! equivalent. The first object that cannot be converted fails the whole review, as the API
//! server requires: its message names the object's position, apiVersion, kind and the reason.
//! Objects are converted as they are, without defaulting: the API server defaults afterwards.

use serde_json::{Value, json};

use super::Codec;
use crate::GroupVersion;

/// The review API version this webhook answers, the one CRDs list in `conversionReviewVersions`.
pub const REVIEW_API_VERSION: &str = "apiextensions.k8s.io/v1";

impl Codec<'_> {
    /// Answers a ConversionReview: the response carries the request's `uid` and either every
    /// object converted to `desiredAPIVersion`, in order, with `result.status: Success`, or no
    /// objects and `result.status: Failure` with a message.
    pub fn review(&self, review: &Value) -> Value {
        let request = &review["request"];
        let uid = request["uid"].as_str().unwrap_or_default();
        let result = self.convert_objects(review, request);
        let response = match result {
            Ok(objects) => json!({
                "uid": uid,
                "convertedObjects": objects,
                "result": { "status": "Success" },
            }),
            Err(message) => json!({
                "uid": uid,
                "result": { "status": "Failure", "message": message },
            }),
        };
        json!({ "apiVersion": REVIEW_API_VERSION, "kind": "ConversionReview", "response": response })
    }

    fn convert_objects(&self, review: &Value, request: &Value) -> Result<Vec<Value>, String> {
        if review["apiVersion"] != REVIEW_API_VERSION || review["kind"] != "ConversionReview" {
            return Err(format!(
                "expected a ConversionReview of {REVIEW_API_VERSION}, got apiVersion {} kind {}",
                review["apiVersion"], review["kind"]
            ));
        }
        if request["uid"].as_str().is_none_or(str::is_empty) {
            return Err("the review has no request.uid".into());
        }
        let target: GroupVersion = request["desiredAPIVersion"]
            .as_str()
            .ok_or("the review has no request.desiredAPIVersion")?
            .parse()
            .map_err(|e| format!("request.desiredAPIVersion: {e}"))?;
        let objects = request["objects"]
            .as_array()
            .ok_or("the review has no request.objects")?;
        objects
            .iter()
            .enumerate()
            .map(|(i, obj)| {
                let field = |k: &str| obj[k].as_str().unwrap_or("?").to_string();
                let at = || format!("object {} ({} {})", i + 1, field("apiVersion"), field("kind"));
                // No defaulting: the API server defaults after conversion, and defaulting here
                // would overwrite explicit zero values that a non-Option default cannot tell
                // from unset ones.
                let external = self.decode_external(obj, false).map_err(|e| format!("{}: {e}", at()))?;
                let internal = self
                    .convert(external.as_ref(), &self.hub_version(external.as_ref()))
                    .map_err(|e| format!("{}: {e}", at()))?;
                self.encode_value(internal.as_ref(), &target)
                    .map_err(|e| format!("{}: {e}", at()))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::test_types::scheme;
    use super::*;

    fn review(desired: &str, objects: Value) -> Value {
        json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "ConversionReview",
            "request": { "uid": "705ab4f5", "desiredAPIVersion": desired, "objects": objects },
        })
    }

    #[test]
    fn converts_every_object_through_the_hub_in_order() {
        let s = scheme().unwrap();
        let objects = json!([
            { "apiVersion": "example.com/v1", "kind": "Widget", "metadata": { "name": "a" }, "spec": { "replicas": 3 } },
            { "apiVersion": "example.com/v2", "kind": "Widget", "metadata": { "name": "b" }, "spec": { "size": 5 } },
        ]);
        let answer = Codec::new(&s).review(&review("example.com/v2", objects));
        let response = &answer["response"];
        assert_eq!(answer["kind"], "ConversionReview");
        assert_eq!(response["uid"], "705ab4f5");
        assert_eq!(response["result"], json!({ "status": "Success" }));
        let converted = response["convertedObjects"].as_array().unwrap();
        assert_eq!(converted.len(), 2);
        assert_eq!(converted[0]["apiVersion"], "example.com/v2");
        assert_eq!(converted[0]["metadata"]["name"], "a");
        assert_eq!(converted[0]["spec"]["size"], 3, "v1 replicas became v2 size");
        assert_eq!(converted[1]["spec"]["size"], 5);
    }

    #[test]
    fn objects_are_not_defaulted() {
        let s = scheme().unwrap();
        let objects =
            json!([{ "apiVersion": "example.com/v1", "kind": "Widget", "metadata": { "name": "a" }, "spec": {} }]);
        let answer = Codec::new(&s).review(&review("example.com/v1", objects));
        let spec = &answer["response"]["convertedObjects"][0]["spec"];
        assert!(
            spec.get("color").is_none(),
            "the v1 defaulter sets color; the webhook must not: {spec}"
        );
        let decoded = Codec::new(&s)
            .decode(br#"{"apiVersion":"example.com/v1","kind":"Widget","spec":{}}"#)
            .unwrap();
        let widget = decoded.downcast_ref::<super::super::test_types::Widget>().unwrap();
        assert_eq!(widget.color, "blue", "while decoding does default");
    }

    #[test]
    fn failures_name_the_object_and_convert_nothing() {
        let s = scheme().unwrap();
        let objects = json!([
            { "apiVersion": "example.com/v1", "kind": "Widget", "metadata": { "name": "a" }, "spec": {} },
            { "apiVersion": "example.com/v9", "kind": "Widget", "metadata": { "name": "b" }, "spec": {} },
        ]);
        let answer = Codec::new(&s).review(&review("example.com/v2", objects));
        let response = &answer["response"];
        assert_eq!(response["uid"], "705ab4f5");
        assert_eq!(response["result"]["status"], "Failure");
        assert!(response.get("convertedObjects").is_none());
        let message = response["result"]["message"].as_str().unwrap();
        assert!(message.starts_with("object 2 (example.com/v9 Widget): "), "{message}");
        let bad = Codec::new(&s).review(&json!({ "kind": "AdmissionReview" }));
        assert_eq!(bad["response"]["result"]["status"], "Failure");
        let no_target = review("", json!([]));
        let answer = Codec::new(&s).review(&no_target);
        assert!(
            answer["response"]["result"]["message"]
                .as_str()
                .unwrap()
                .contains("desiredAPIVersion")
        );
    }
}
