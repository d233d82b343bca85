//! Protobuf on the wire for the typed clients of built-in kinds, client-go's default content type
//! for them: bodies sent as `application/vnd.kubernetes.protobuf`, answers asked for in protobuf
//! (JSON accepted too) and read in whichever the server chose. Custom resources have no protobuf
//! form and stay on JSON.

use std::marker::PhantomData;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ListMeta;
use kube::api::ObjectList;
use kube::core::response::Status;
use serde::de::DeserializeOwned;

use crate::protobuf::{CONTENT_TYPE, DecodeError, Message, Unknown, is_protobuf};

/// What the typed clients ask for: protobuf first, JSON where the server has no protobuf form.
const ACCEPT: &str = "application/vnd.kubernetes.protobuf, application/json";

/// How a kind and its list travel as protobuf; the generated clientset gives one to the typed
/// client of every kind whose package has protobuf messages (`Verbs::protobuf`).
pub trait ProtobufForm<K: Clone>: Send + Sync {
    /// The request body of `obj`: magic bytes, then the envelope naming its apiVersion and kind.
    fn encode(&self, obj: &K) -> Vec<u8>;
    /// The object in an answer's envelope.
    fn decode(&self, unknown: &Unknown) -> Result<K, DecodeError>;
    /// The list in an answer's envelope.
    fn decode_list(&self, unknown: &Unknown) -> Result<ObjectList<K>, DecodeError>;
}

/// The protobuf form of kind `K` with list kind `L`: `split` takes a decoded list apart into
/// its metadata and items (the generated code names the list's fields).
pub struct Protobuf<K, L> {
    split: fn(L) -> (ListMeta, Vec<K>),
    kinds: PhantomData<fn() -> (K, L)>,
}

impl<K, L> Protobuf<K, L> {
    /// The form whose lists `split` takes apart; `const`, so that it can be a `static`.
    pub const fn new(split: fn(L) -> (ListMeta, Vec<K>)) -> Self {
        Protobuf {
            split,
            kinds: PhantomData,
        }
    }
}

impl<K, L> ProtobufForm<K> for Protobuf<K, L>
where
    K: Message + Default + Clone + crate::Object + kube::Resource<DynamicType = ()>,
    L: Message + Default,
{
    fn encode(&self, obj: &K) -> Vec<u8> {
        Unknown::wrap(&K::api_version(&()), &K::kind(&()), obj).encode()
    }

    fn decode(&self, unknown: &Unknown) -> Result<K, DecodeError> {
        // The message leaves TypeMeta to the envelope; JSON answers carry it, so protobuf ones
        // get it from there and read the same.
        let mut obj: K = unknown.object()?;
        let gv = crate::GroupVersion::parse_api_version(&unknown.api_version)
            .map_err(|e| DecodeError::new(format!("the answer's apiVersion: {e}")))?;
        obj.set_group_version_kind(&gv.with_kind(unknown.kind.as_str()));
        Ok(obj)
    }

    fn decode_list(&self, unknown: &Unknown) -> Result<ObjectList<K>, DecodeError> {
        let (metadata, items) = (self.split)(unknown.object::<L>()?);
        let types = kube::core::TypeMeta {
            api_version: unknown.api_version.clone(),
            kind: unknown.kind.clone(),
        };
        Ok(ObjectList { types, metadata, items })
    }
}

/// The `Verbs::protobuf` of a kind with list kind `$list`, whose ListMeta is the field `$meta`
/// (`$meta?` when it is an `Option`): what the generated clientset writes for a built-in kind.
///
/// ```ignore
/// impl kube_apimachinery::client::Verbs for DeploymentVerbs {
///     type Object = apis::apps::v1::Deployment;
///     kube_apimachinery::protobuf_form!(apis::apps::v1::Deployment, apis::apps::v1::DeploymentList, metadata);
/// }
/// ```
#[macro_export]
macro_rules! protobuf_form {
    ($kind:ty, $list:ty, $meta:ident) => {
        $crate::protobuf_form!(@form $kind, $list, |list| (list.$meta, list.items));
    };
    ($kind:ty, $list:ty, $meta:ident ?) => {
        $crate::protobuf_form!(@form $kind, $list, |list| (list.$meta.unwrap_or_default(), list.items));
    };
    (@form $kind:ty, $list:ty, $split:expr) => {
        fn protobuf() -> ::core::option::Option<&'static dyn $crate::client::ProtobufForm<Self::Object>> {
            static FORM: $crate::client::Protobuf<$kind, $list> = $crate::client::Protobuf::new($split);
            ::core::option::Option::Some(&FORM)
        }
    };
}

/// One exchange in protobuf: `request` (a URL and method from kube's request builder) with
/// `body` as its protobuf body if any, the answer read by `read` when it is protobuf and as JSON
/// otherwise. An error answer is the `kube::Error::Api` of its Status in either encoding, as
/// kube's own calls give it.
pub(super) async fn exchange<R: DeserializeOwned>(
    client: &kube::Client,
    mut request: http::Request<Vec<u8>>,
    body: Option<Vec<u8>>,
    read: impl FnOnce(&Unknown) -> Result<R, DecodeError>,
) -> kube::Result<R> {
    let headers = request.headers_mut();
    headers.insert(http::header::ACCEPT, http::HeaderValue::from_static(ACCEPT));
    if let Some(body) = body {
        headers.insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static(CONTENT_TYPE));
        *request.body_mut() = body;
    }
    let response = client.send(request.map(kube::client::Body::from)).await?;
    let status = response.status();
    let bytes = response.into_body().collect_bytes().await?;
    if status.is_client_error() || status.is_server_error() {
        return Err(kube::Error::Api(error_status(status, &bytes).boxed()));
    }
    if is_protobuf(&bytes) {
        let decoded = Unknown::decode(&bytes).and_then(|u| read(&u));
        return decoded.map_err(|e| protobuf_error(status, &e));
    }
    serde_json::from_slice(&bytes).map_err(kube::Error::SerdeError)
}

/// The Status of an error answer, from protobuf or JSON; a body that is neither (a proxy's
/// page) becomes a failure with its text, as kube does.
fn error_status(code: http::StatusCode, bytes: &[u8]) -> Status {
    type WireStatus = k8s_openapi::apimachinery::pkg::apis::meta::v1::Status;
    let from_protobuf = || {
        let status: WireStatus = Unknown::decode(bytes).ok()?.object().ok()?;
        serde_json::from_value(serde_json::to_value(status).ok()?).ok()
    };
    let decoded = if is_protobuf(bytes) {
        from_protobuf()
    } else {
        serde_json::from_slice(bytes).ok()
    };
    decoded.unwrap_or_else(|| {
        let text = String::from_utf8_lossy(bytes);
        Status::failure(text.trim(), "Failed to parse error data").with_code(code.as_u16())
    })
}

/// A protobuf answer that does not decode as the kind: reported like a body kube cannot read.
fn protobuf_error(code: http::StatusCode, e: &DecodeError) -> kube::Error {
    let message = format!("the server's protobuf answer does not decode: {e}");
    kube::Error::Api(Status::failure(&message, "Protobuf").with_code(code.as_u16()).boxed())
}

#[cfg(test)]
mod tests {
    use super::*;
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::Status as WireStatus;

    fn not_found() -> WireStatus {
        WireStatus {
            status: Some("Failure".into()),
            message: Some("deployments.apps \"web\" not found".into()),
            reason: Some("NotFound".into()),
            code: Some(404),
            ..Default::default()
        }
    }

    /// A Status answers alike in protobuf (kube-apiserver's encoding when protobuf was asked
    /// for) and in JSON; a body that is neither keeps its text and the HTTP code.
    #[test]
    fn error_answers_read_in_either_encoding() {
        let code = http::StatusCode::NOT_FOUND;
        let protobuf = Unknown::wrap("v1", "Status", &not_found()).encode();
        let json = serde_json::to_vec(&not_found()).unwrap();
        for body in [protobuf, json] {
            let status = error_status(code, &body);
            assert_eq!((status.code, status.reason.as_str()), (404, "NotFound"));
            assert_eq!(status.message, "deployments.apps \"web\" not found");
        }
        let page = error_status(http::StatusCode::BAD_GATEWAY, b"<html>bad gateway</html>\n");
        assert_eq!((page.code, page.message.as_str()), (502, "<html>bad gateway</html>"));
    }
}
