//! A CRD's conversion webhook, called as kube-apiserver calls it: a `ConversionReview` POSTed
//! over HTTPS to `clientConfig.url`, trusting `caBundle`; the response checked (review kind, uid,
//! result, object count, each object's apiVersion, kind and identity) and each converted object's
//! metadata restored but for labels and annotations. A failure is a 500 without a reason,
//! `conversion webhook for <group/version, Kind=kind> failed: ...`, as Kubernetes answers it.
//!
//! The request path converts synchronously, so a call blocks its thread: on a multi-thread
//! runtime through `block_in_place` (other tasks move on), elsewhere on a thread of its own.
//! A webhook served on the same current-thread runtime as the server would wait for itself.

use std::future::Future;
use std::time::Duration;

use serde_json::{Value, json};

use kube_generic_apiserver::status::ApiError;

/// Kubernetes' default conversion webhook timeout.
const TIMEOUT: Duration = Duration::from_secs(30);

/// One CRD's conversion webhook.
pub struct Webhook {
    url: String,
    client: reqwest::Client,
    /// The ConversionReview version both sides speak: v1 unless only v1beta1 is listed.
    review_version: &'static str,
}

impl Webhook {
    /// The webhook `spec.conversion.webhook` describes; why it cannot be called otherwise.
    pub fn new(webhook: &Value) -> Result<Webhook, String> {
        let config = &webhook["clientConfig"];
        let Some(url) = config.get("url").and_then(Value::as_str) else {
            return Err("only clientConfig.url webhooks are called: this server runs no Services".into());
        };
        let mut builder = reqwest::Client::builder()
            .timeout(TIMEOUT)
            // Connections are not kept: a call may run on a runtime of its own.
            .pool_max_idle_per_host(0)
            .tls_built_in_root_certs(false);
        if let Some(bundle) = config.get("caBundle").and_then(Value::as_str) {
            use base64::Engine;
            let pem = base64::engine::general_purpose::STANDARD
                .decode(bundle)
                .map_err(|e| format!("caBundle is not base64: {e}"))?;
            for cert in reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| format!("caBundle: {e}"))? {
                builder = builder.add_root_certificate(cert);
            }
        }
        let client = builder.build().map_err(|e| e.to_string())?;
        let versions = webhook["conversionReviewVersions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let review_version = if versions.iter().any(|v| v == "v1") || versions.is_empty() {
            "apiextensions.k8s.io/v1"
        } else {
            "apiextensions.k8s.io/v1beta1"
        };
        Ok(Webhook {
            url: url.to_string(),
            client,
            review_version,
        })
    }

    /// `objects` (all of `source`, `<group/version>, Kind=<kind>`) converted to `desired`.
    pub fn convert(&self, objects: Vec<Value>, desired: &str, source: &str) -> Result<Vec<Value>, ApiError> {
        let failed = |why: String| ApiError::unknown(format!("conversion webhook for {source} failed: {why}"));
        let uid = uuid::Uuid::new_v4().to_string();
        let review = json!({
            "kind": "ConversionReview",
            "apiVersion": self.review_version,
            "request": {"uid": uid, "desiredAPIVersion": desired, "objects": objects},
            "response": {"uid": "", "convertedObjects": null, "result": {"metadata": {}}},
        });
        let answer = block_on(async {
            let response = self
                .client
                .post(&self.url)
                .json(&review)
                .send()
                .await
                .map_err(|e| format!("Post \"{}\": {e}", self.url))?;
            let status = response.status();
            let body = response.bytes().await.map_err(|e| e.to_string())?;
            if !status.is_success() {
                return Err(format!(
                    "the server responded with the status code {} but did not return more information",
                    status.as_u16()
                ));
            }
            serde_json::from_slice::<Value>(&body).map_err(|e| e.to_string())
        })
        .map_err(failed)?;
        let got = (answer["apiVersion"].as_str(), answer["kind"].as_str());
        if got != (Some(self.review_version), Some("ConversionReview")) {
            return Err(failed(format!(
                "expected webhook response of {}, Kind=ConversionReview, got {}, Kind={}",
                self.review_version,
                got.0.unwrap_or_default(),
                got.1.unwrap_or_default()
            )));
        }
        let response = answer
            .get("response")
            .filter(|r| !r.is_null())
            .ok_or_else(|| failed("no response provided".into()))?;
        let answered = response["uid"].as_str().unwrap_or_default();
        if answered != uid {
            return Err(failed(format!("expected response.uid={uid:?}, got {answered:?}")));
        }
        let status = response["result"]["status"].as_str().unwrap_or_default();
        if status != "Success" {
            return Err(failed(match response["result"]["message"].as_str() {
                Some(m) if !m.is_empty() => m.to_string(),
                _ => format!("response.result.status was '{status}', not 'Success'"),
            }));
        }
        let converted = response["convertedObjects"].as_array().cloned().unwrap_or_default();
        let objects = review["request"]["objects"].as_array().cloned().unwrap_or_default();
        if converted.len() != objects.len() {
            return Err(ApiError::unknown(format!(
                "conversion webhook for {source} returned {} objects, expected {}",
                converted.len(),
                objects.len()
            )));
        }
        converted
            .into_iter()
            .zip(&objects)
            .enumerate()
            .map(|(i, (object, original))| restore(object, original, desired, i, source))
            .collect()
    }
}

/// A converted object checked against its original: the desired version, the same kind and
/// identity; its metadata is the original's but for labels and annotations.
fn restore(mut object: Value, original: &Value, desired: &str, index: usize, source: &str) -> Result<Value, ApiError> {
    let invalid = |why: String| {
        ApiError::unknown(format!(
            "conversion webhook for {source} returned invalid object at index {index}: {why}"
        ))
    };
    let api_version = object["apiVersion"].as_str().unwrap_or_default();
    if api_version != desired {
        return Err(invalid(format!(
            "invalid groupVersion (expected {desired}, received {api_version})"
        )));
    }
    if object["kind"] != original["kind"] {
        return Err(invalid(format!(
            "invalid kind (expected {}, received {})",
            original["kind"].as_str().unwrap_or_default(),
            object["kind"].as_str().unwrap_or_default()
        )));
    }
    for key in ["name", "namespace", "uid"] {
        let (now, was) = (&object["metadata"][key], &original["metadata"][key]);
        if now != was {
            return Err(ApiError::unknown(format!(
                "conversion webhook for {source} returned invalid object: must have the same {key}: {} != {}",
                now.as_str().unwrap_or_default(),
                was.as_str().unwrap_or_default()
            )));
        }
    }
    let mut metadata = original["metadata"].clone();
    for key in ["labels", "annotations"] {
        match object["metadata"].get(key) {
            Some(v) if !v.is_null() => metadata[key] = v.clone(),
            _ => {
                if let Some(m) = metadata.as_object_mut() {
                    m.remove(key);
                }
            }
        }
    }
    object["metadata"] = metadata;
    Ok(object)
}

/// Runs `f` to completion from synchronous code inside or outside a Tokio runtime.
fn block_on<F: Future + Send>(f: F) -> F::Output
where
    F::Output: Send,
{
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(|| handle.block_on(f))
        }
        _ => std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .expect("a runtime for a conversion webhook call");
                    runtime.block_on(f)
                })
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        }),
    }
}
