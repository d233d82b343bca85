//! Response encoding: JSON, YAML or protobuf by `Accept`, a `Table` (`table.rs`) when the client
//! asks for one (kubectl's `get`), and `Warning` headers. Protobuf is answered for kinds that have a
//! protobuf form; anything else (a Table, a Status, a custom resource) falls back to JSON, which
//! every client that asks for protobuf (client-go's typed clients) also accepts.

use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::status::ApiError;
use crate::table::TableConvertor;

/// What the client accepts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Negotiated {
    /// YAML instead of JSON.
    pub yaml: bool,
    /// A `meta.k8s.io` Table instead of the object or list.
    pub table: bool,
    /// Protobuf (`application/vnd.kubernetes.protobuf`), where the kind has a protobuf form.
    pub protobuf: bool,
    /// Indented JSON (`?pretty=true`).
    pub pretty: bool,
    /// Metadata only (`as=PartialObjectMetadata` or `as=PartialObjectMetadataList`, what
    /// client-go's metadata client and kube-rs' `metadata_watcher` ask for).
    pub partial: Option<Partial>,
}

/// A metadata-only view of objects (`meta.k8s.io` `PartialObjectMetadata`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Partial {
    /// `as=PartialObjectMetadataList` (a list or watch) rather than `as=PartialObjectMetadata`.
    pub list: bool,
    /// `meta.k8s.io/v1` or `meta.k8s.io/v1beta1`, as asked.
    pub api_version: &'static str,
}

impl Partial {
    /// The metadata view of one object.
    pub fn object(&self, obj: &Value) -> Value {
        serde_json::json!({
            "kind": "PartialObjectMetadata",
            "apiVersion": self.api_version,
            "metadata": obj.get("metadata").cloned().unwrap_or_else(|| serde_json::json!({})),
        })
    }

    /// The metadata view of a list: its metadata, and each item's.
    pub fn list(&self, list: &Value) -> Value {
        let items: Vec<Value> = list["items"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|i| self.object(i))
            .collect();
        serde_json::json!({
            "kind": "PartialObjectMetadataList",
            "apiVersion": self.api_version,
            "metadata": list.get("metadata").cloned().unwrap_or_else(|| serde_json::json!({})),
            "items": items,
        })
    }
}

impl Negotiated {
    /// Reads `Accept`: of the media types this server can produce, the one with the highest `q`
    /// wins, the first written among equals (as Kubernetes' goautoneg orders them); `q=0` is
    /// refused.
    pub fn from_headers(headers: &HeaderMap) -> Result<Negotiated, ApiError> {
        let accept = headers.get("accept").and_then(|v| v.to_str().ok()).unwrap_or("");
        if accept.trim().is_empty() {
            return Ok(Negotiated::default());
        }
        let mut clauses: Vec<(f64, Vec<&str>)> = accept
            .split(',')
            .map(|clause| {
                let parts: Vec<&str> = clause.split(';').map(str::trim).collect();
                // A weight that does not parse counts as 0, as goautoneg reads it.
                let q = parts
                    .iter()
                    .filter_map(|p| p.split_once('='))
                    .find(|(name, _)| name.trim().eq_ignore_ascii_case("q"))
                    .map_or(1.0, |(_, q)| q.trim().parse::<f64>().unwrap_or(0.0));
                (q, parts)
            })
            .filter(|(q, _)| *q > 0.0)
            .collect();
        // A stable sort keeps the written order among equal weights.
        clauses.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (_, parts) in &clauses {
            let media = parts.first().copied().unwrap_or("").to_ascii_lowercase();
            let params: Vec<(&str, &str)> = parts[1..].iter().filter_map(|p| p.split_once('=')).collect();
            let param = |k: &str| params.iter().find(|(n, _)| *n == k).map(|(_, v)| *v);
            let view = param("as");
            let table = view == Some("Table");
            let partial = matches!(view, Some("PartialObjectMetadata" | "PartialObjectMetadataList"));
            if view.is_some() && !table && !partial {
                // Another view (aggregated discovery): not produced here.
                continue;
            }
            let meta_version = match param("v") {
                Some("v1") => "meta.k8s.io/v1",
                Some("v1beta1") => "meta.k8s.io/v1beta1",
                _ => "",
            };
            if view.is_some() && (param("g") != Some("meta.k8s.io") || meta_version.is_empty()) {
                continue;
            }
            let negotiated = Negotiated {
                table,
                partial: partial.then(|| Partial {
                    list: view == Some("PartialObjectMetadataList"),
                    api_version: meta_version,
                }),
                ..Negotiated::default()
            };
            match media.as_str() {
                "application/json" | "application/*" | "*/*" | "application/json+table" => return Ok(negotiated),
                "application/yaml" => {
                    return Ok(Negotiated {
                        yaml: true,
                        ..negotiated
                    });
                }
                // Tables and metadata views are written as JSON only.
                kube_apimachinery::protobuf::CONTENT_TYPE if !table && !partial => {
                    return Ok(Negotiated {
                        protobuf: true,
                        ..negotiated
                    });
                }
                _ => {}
            }
        }
        Err(ApiError::not_acceptable(accept))
    }
}

/// Encodes `value` as negotiated.
pub fn encode(n: &Negotiated, code: StatusCode, value: &Value, warnings: &[String]) -> Result<Response, ApiError> {
    let (body, content_type) = if n.yaml {
        let text = serde_saphyr::to_string(value).map_err(|e| ApiError::internal(e.to_string()))?;
        (text.into_bytes(), "application/yaml")
    } else if n.pretty {
        (
            serde_json::to_vec_pretty(value).map_err(|e| ApiError::internal(e.to_string()))?,
            "application/json",
        )
    } else {
        (
            serde_json::to_vec(value).map_err(|e| ApiError::internal(e.to_string()))?,
            "application/json",
        )
    };
    Ok(with_warnings(
        (code, [("content-type", content_type)], body).into_response(),
        warnings,
    ))
}

/// A protobuf body already written.
pub fn protobuf(code: StatusCode, body: Vec<u8>, warnings: &[String]) -> Response {
    with_warnings(
        (
            code,
            [("content-type", kube_apimachinery::protobuf::CONTENT_TYPE)],
            body,
        )
            .into_response(),
        warnings,
    )
}

/// `response` with a `Warning` header per warning, its text quoted as Go's `strconv.Quote`
/// quotes it (kubectl and client-go unquote it back).
fn with_warnings(mut response: Response, warnings: &[String]) -> Response {
    for w in warnings {
        if let Ok(v) = HeaderValue::from_str(&format!("299 - {}", kube_apimachinery::validation::go_quote(w))) {
            response.headers_mut().append("warning", v);
        }
    }
    response
}

/// A JSON value answered with 200.
pub fn json_response(value: Value) -> Response {
    json_bytes(StatusCode::OK, serde_json::to_vec(&value).unwrap_or_default())
}

/// A JSON answer of `code` whose bytes are written already.
pub fn json_bytes(code: StatusCode, body: Vec<u8>) -> Response {
    (code, [("content-type", "application/json")], body).into_response()
}

/// One object (or a Table of one row, when asked).
pub fn object(
    n: &Negotiated,
    code: StatusCode,
    obj: Value,
    warnings: &[String],
    table: &dyn TableConvertor,
) -> Result<Response, ApiError> {
    if n.table {
        let rv = obj["metadata"]["resourceVersion"].clone();
        return encode(n, code, &crate::table::table(table, &[obj], &rv), warnings);
    }
    match n.partial {
        Some(p) if p.list => Err(ApiError::not_acceptable_view(
            "you requested PartialObjectMetadataList, but the requested object is not a list",
        )),
        Some(p) => encode(n, code, &p.object(&obj), warnings),
        None => encode(n, code, &obj, warnings),
    }
}

/// A list (or its Table, when asked).
pub fn list(n: &Negotiated, list: Value, table: &dyn TableConvertor) -> Result<Response, ApiError> {
    if n.table {
        let items = list["items"].as_array().cloned().unwrap_or_default();
        let mut t = crate::table::table(table, &items, &list["metadata"]["resourceVersion"]);
        if let Some(c) = list["metadata"].get("continue") {
            t["metadata"]["continue"] = c.clone();
        }
        return encode(n, StatusCode::OK, &t, &[]);
    }
    match n.partial {
        Some(p) if !p.list => Err(ApiError::not_acceptable_view(
            "you requested PartialObjectMetadata, but the requested object is a list",
        )),
        Some(p) => encode(n, StatusCode::OK, &p.list(&list), &[]),
        None => encode(n, StatusCode::OK, &list, &[]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn negotiate(accept: &str) -> Result<Negotiated, ApiError> {
        let mut h = HeaderMap::new();
        h.insert("accept", HeaderValue::from_str(accept).unwrap());
        Negotiated::from_headers(&h)
    }

    #[test]
    fn accept_headers_pick_json_yaml_or_table() {
        let kubectl_get = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
        assert_eq!(
            negotiate(kubectl_get).unwrap(),
            Negotiated {
                table: true,
                ..Negotiated::default()
            }
        );
        assert_eq!(
            negotiate("application/yaml").unwrap(),
            Negotiated {
                yaml: true,
                ..Negotiated::default()
            }
        );
        let discovery = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json";
        assert_eq!(negotiate(discovery).unwrap(), Negotiated::default());
        // client-go's typed clients: protobuf first, JSON for kinds without a protobuf form.
        assert_eq!(
            negotiate("application/vnd.kubernetes.protobuf, */*").unwrap(),
            Negotiated {
                protobuf: true,
                ..Negotiated::default()
            }
        );
        assert_eq!(
            negotiate("application/vnd.kubernetes.protobuf;q=0.5, application/json").unwrap(),
            Negotiated::default(),
            "the higher q wins"
        );
        assert_eq!(negotiate("application/json;q=0").unwrap_err().code, 406);
        assert_eq!(
            negotiate("Application/YAML;Q=abc, application/json").unwrap(),
            Negotiated::default()
        );
        let protobuf_table = "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io";
        assert_eq!(negotiate(protobuf_table).unwrap_err().code, 406);
    }
}
