//! The query parameters of resource requests (`metav1.ListOptions`, `CreateOptions`, ...), read
//! once per request, and the continue token of paginated lists.

use std::collections::BTreeMap;

use crate::request::parse_bool;
use crate::status::ApiError;
use kube_apiserver_storage::Revision;

/// How strictly unknown fields in a body are treated (`?fieldValidation=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldValidation {
    /// Unknown fields are an error.
    Strict,
    /// Unknown fields are dropped with a warning.
    Warn,
    /// Unknown fields are dropped.
    Ignore,
}

/// The parameters a resource request may carry.
#[derive(Clone, Debug, Default)]
pub struct Params {
    /// `?labelSelector=`.
    pub label_selector: String,
    /// `?fieldSelector=`.
    pub field_selector: String,
    /// `?limit=`.
    pub limit: Option<usize>,
    /// `?continue=`.
    pub continue_token: Option<String>,
    /// `?resourceVersion=`.
    pub resource_version: Option<String>,
    /// `?resourceVersionMatch=`.
    pub resource_version_match: Option<String>,
    /// `?watch=true`.
    pub watch: bool,
    /// `?allowWatchBookmarks=true`.
    pub bookmarks: bool,
    /// `?timeoutSeconds=`.
    pub timeout_seconds: Option<u64>,
    /// `?dryRun=All`.
    pub dry_run: bool,
    /// `?fieldValidation=`.
    pub field_validation: Option<FieldValidation>,
    /// `?fieldManager=`.
    pub field_manager: Option<String>,
    /// `?force=true` (server-side apply).
    pub force: bool,
    /// `?propagationPolicy=`.
    pub propagation_policy: Option<String>,
    /// `?orphanDependents=`.
    pub orphan_dependents: Option<bool>,
    /// `?pretty=true`: indented JSON.
    pub pretty: bool,
}

/// The largest page a list serves; bigger limits are capped, as etcd caps them.
pub const MAX_LIMIT: usize = 10_000;

impl Params {
    /// Reads a query string.
    pub fn parse(query: Option<&str>) -> Result<Params, ApiError> {
        let pairs: BTreeMap<String, String> = form_urlencoded::parse(query.unwrap_or("").as_bytes())
            .into_owned()
            .collect();
        let flag = |k: &str| -> Result<bool, ApiError> {
            match pairs.get(k).map(String::as_str) {
                None => Ok(false),
                Some(v) => parse_bool(v).ok_or_else(|| {
                    ApiError::bad_request(format!("invalid value for {k}: \"{v}\": expected true or false"))
                }),
            }
        };
        let number = |k: &str| -> Result<Option<u64>, ApiError> {
            pairs
                .get(k)
                .filter(|v| !v.is_empty())
                .map(|v| {
                    v.parse::<u64>().map_err(|_| {
                        ApiError::bad_request(format!(
                            "invalid value for {k}: \"{v}\": expected a non-negative integer"
                        ))
                    })
                })
                .transpose()
        };
        let field_validation = match pairs.get("fieldValidation").map(String::as_str) {
            None | Some("") => None,
            Some("Strict") => Some(FieldValidation::Strict),
            Some("Warn") => Some(FieldValidation::Warn),
            Some("Ignore") => Some(FieldValidation::Ignore),
            Some(v) => {
                return Err(ApiError::bad_request(format!(
                    "fieldValidation must be one of Ignore, Warn, Strict, not \"{v}\""
                )));
            }
        };
        let dry_run = match pairs.get("dryRun").map(String::as_str) {
            None | Some("") => false,
            Some("All") => true,
            Some(v) => {
                return Err(ApiError::bad_request(format!(
                    "dryRun: Unsupported value: \"{v}\": supported values: \"All\""
                )));
            }
        };
        Ok(Params {
            label_selector: pairs.get("labelSelector").cloned().unwrap_or_default(),
            field_selector: pairs.get("fieldSelector").cloned().unwrap_or_default(),
            limit: number("limit")?.map(|l| (l as usize).min(MAX_LIMIT)).filter(|l| *l > 0),
            continue_token: pairs.get("continue").filter(|c| !c.is_empty()).cloned(),
            resource_version: pairs.get("resourceVersion").filter(|c| !c.is_empty()).cloned(),
            resource_version_match: pairs.get("resourceVersionMatch").filter(|c| !c.is_empty()).cloned(),
            watch: flag("watch")?,
            bookmarks: flag("allowWatchBookmarks")?,
            timeout_seconds: number("timeoutSeconds")?,
            dry_run,
            field_validation,
            field_manager: pairs.get("fieldManager").cloned(),
            force: flag("force")?,
            propagation_policy: pairs.get("propagationPolicy").cloned(),
            orphan_dependents: pairs
                .contains_key("orphanDependents")
                .then(|| flag("orphanDependents"))
                .transpose()?,
            pretty: flag("pretty")?,
        })
    }

    /// `resourceVersion` as a revision: `None` when unset or "0" (any version will do).
    pub fn revision(&self) -> Result<Option<Revision>, ApiError> {
        match self.resource_version.as_deref() {
            None | Some("0") => Ok(None),
            Some(rv) => rv
                .parse()
                .map(Some)
                .map_err(|_| ApiError::bad_request(format!("invalid resource version \"{rv}\": must be an integer"))),
        }
    }
}

/// Which state a list reads, from `resourceVersion`, `resourceVersionMatch` and `continue`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListFrom {
    /// The latest state (no resourceVersion, or "0": any state will do, and the latest is one).
    Latest,
    /// A state at least as new as this revision (`resourceVersion=N`, `NotOlderThan`).
    NotOlderThan(Revision),
    /// The state at exactly this revision (`resourceVersionMatch=Exact`).
    Exact(Revision),
    /// The next page of a list read at this revision, after this key (`continue`).
    Continue(Revision, String),
}

impl Params {
    /// Which state a list reads, with Kubernetes' checks of the combination (422 Invalid
    /// ListOptions, or 400 for a resourceVersion beside a continue token).
    pub fn list_from(&self) -> Result<ListFrom, ApiError> {
        let forbidden = |message: &str| {
            let cause = crate::status::Cause {
                reason: "FieldValueForbidden",
                message: format!("Forbidden: {message}"),
                field: "resourceVersionMatch".into(),
            };
            ApiError::invalid("meta.k8s.io", "ListOptions", "", vec![cause])
        };
        let matching = self.resource_version_match.as_deref();
        if let Some(token) = &self.continue_token {
            if matching.is_some() {
                return Err(forbidden("resourceVersionMatch is forbidden when continue is provided"));
            }
            if self.resource_version.as_deref().is_some_and(|rv| rv != "0") {
                return Err(ApiError::bad_request(
                    "specifying resource version is not allowed when using continue",
                ));
            }
            let (revision, key) = decode_continue(token)?;
            return Ok(ListFrom::Continue(revision, key));
        }
        if matching.is_some() && self.resource_version.is_none() {
            return Err(forbidden(
                "resourceVersionMatch is forbidden unless resourceVersion is provided",
            ));
        }
        match (matching, self.revision()?) {
            (None | Some("NotOlderThan"), None) => Ok(ListFrom::Latest),
            (None | Some("NotOlderThan"), Some(rev)) => Ok(ListFrom::NotOlderThan(rev)),
            (Some("Exact"), None) => Err(forbidden(
                "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
            )),
            (Some("Exact"), Some(rev)) => Ok(ListFrom::Exact(rev)),
            (Some(other), _) => {
                let cause = crate::status::Cause {
                    reason: "FieldValueNotSupported",
                    message: format!(
                        "Unsupported value: \"{other}\": supported values: \"Exact\", \"NotOlderThan\", \"\""
                    ),
                    field: "resourceVersionMatch".into(),
                };
                Err(ApiError::invalid("meta.k8s.io", "ListOptions", "", vec![cause]))
            }
        }
    }
}

/// A continue token: the list's revision and the last key served, hex-encoded so clients treat it
/// as opaque.
pub fn encode_continue(revision: Revision, key: &str) -> String {
    let text = format!("{revision}/{key}");
    text.bytes().map(|b| format!("{b:02x}")).collect()
}

/// The revision and key of a continue token.
pub fn decode_continue(token: &str) -> Result<(Revision, String), ApiError> {
    let invalid = || ApiError::bad_request("continue key is not valid: not a token this server issued");
    if !token.len().is_multiple_of(2) {
        return Err(invalid());
    }
    // Pairs of bytes, not of characters: a token is any text a client sends, multibyte too.
    let bytes: Option<Vec<u8>> = token
        .as_bytes()
        .chunks(2)
        .map(|pair| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|p| u8::from_str_radix(p, 16).ok())
        })
        .collect();
    let text = String::from_utf8(bytes.ok_or_else(invalid)?).map_err(|_| invalid())?;
    let (rev, key) = text.split_once('/').ok_or_else(invalid)?;
    Ok((rev.parse().map_err(|_| invalid())?, key.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_and_tokens() {
        let p = Params::parse(Some(
            "labelSelector=app%3Dweb&limit=20000&watch=true&dryRun=All&fieldValidation=Strict",
        ))
        .unwrap();
        assert_eq!(p.label_selector, "app=web");
        assert_eq!(p.limit, Some(MAX_LIMIT), "a huge limit is capped");
        assert!(p.watch && p.dry_run);
        assert_eq!(p.field_validation, Some(FieldValidation::Strict));
        assert!(Params::parse(Some("dryRun=Some")).is_err());
        assert!(
            Params::parse(Some("watch=True")).unwrap().watch,
            "the Python client's spelling"
        );
        assert!(Params::parse(Some("watch=yes")).is_err());
        assert!(Params::parse(Some("limit=-1")).is_err());
        assert!(Params::parse(Some("resourceVersion=abc")).unwrap().revision().is_err());
        let t = encode_continue(42, "/registry/apps/deployments/ns/web");
        assert_eq!(
            decode_continue(&t).unwrap(),
            (42, "/registry/apps/deployments/ns/web".to_string())
        );
        assert!(decode_continue("zz").is_err());
        assert!(decode_continue("abc").is_err());
        assert!(
            decode_continue("a\u{e9}b").is_err(),
            "a multibyte character is not a panic"
        );
    }
}
