//! `Impersonate-User`, `Impersonate-Group`, `Impersonate-Uid` and `Impersonate-Extra-<key>`
//! (`kubectl --as`, `--as-group`): the request is served as the user the headers name, once the
//! authorizers allow the authenticated user the `impersonate` verb on each of them, as
//! k8s.io/apiserver's impersonation filter does. A service account user
//! (`system:serviceaccount:<ns>:<name>`) is impersonated through `serviceaccounts` in its
//! namespace, and gets the service account groups; every impersonated user but the anonymous one
//! is in `system:authenticated`.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::authentication::serviceaccount::{SERVICE_ACCOUNTS_GROUP, split_username};
use crate::authentication::{ANONYMOUS, SYSTEM_AUTHENTICATED, UNAUTHENTICATED, UserInfo, user_of};
use crate::authorization::{Attributes, Decision};
use crate::request::RequestInfo;
use crate::status::ApiError;

const USER: &str = "impersonate-user";
const GROUP: &str = "impersonate-group";
const UID: &str = "impersonate-uid";
const EXTRA_PREFIX: &str = "impersonate-extra-";

/// Who was impersonated and by whom: the authenticated user, kept for audit.
#[derive(Clone, Debug)]
pub struct ImpersonatedBy(pub UserInfo);

/// What the headers ask to act as.
#[derive(Debug, Default, PartialEq, Eq)]
struct Requested {
    user: Option<String>,
    groups: Vec<String>,
    uid: Option<String>,
    extra: Vec<(String, String)>,
}

fn values<'a>(headers: &'a http::HeaderMap, name: &str) -> impl Iterator<Item = String> + 'a {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .map(str::to_string)
}

/// The impersonation the headers ask for; an error when they name groups, extras or a uid
/// without a user.
fn requested(headers: &http::HeaderMap) -> Result<Option<Requested>, String> {
    let mut r = Requested {
        user: values(headers, USER).next(),
        groups: values(headers, GROUP).collect(),
        uid: values(headers, UID).next(),
        ..Requested::default()
    };
    for (name, value) in headers {
        if let Some(key) = name.as_str().strip_prefix(EXTRA_PREFIX)
            && let Ok(value) = value.to_str()
        {
            // Keys are percent-encoded in the header name, as client-go writes them; header
            // names are case-insensitive, so keys are lower case.
            let key = percent_decode(&key.to_ascii_lowercase());
            r.extra.push((key, value.to_string()));
        }
    }
    match &r.user {
        Some(_) => Ok(Some(r)),
        None if r.groups.is_empty() && r.uid.is_none() && r.extra.is_empty() => Ok(None),
        None => Err(format!("requested {} without impersonating a user", describe(&r))),
    }
}

/// The requests as kube-apiserver's message prints them: Go's `%v` of its ObjectReferences
/// (kind, namespace, name, uid, API version, resource version, field path), groups first, then
/// extras, then the uid.
fn describe(r: &Requested) -> String {
    let reference = |kind: &str, name: &str, api_version: &str, field_path: &str| {
        format!("{{{kind}  {name}  {api_version}  {field_path}}}")
    };
    let mut parts: Vec<String> = r.groups.iter().map(|g| reference("Group", g, "", "")).collect();
    parts.extend(
        r.extra
            .iter()
            .map(|(k, v)| reference("UserExtra", v, "authentication.k8s.io/v1", k)),
    );
    parts.extend(
        r.uid
            .iter()
            .map(|u| reference("UID", u, "authentication.k8s.io/v1", "")),
    );
    format!("[{}]", parts.join(" "))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = s.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The `impersonate` check of one thing the headers name.
fn impersonate(api_group: &str, resource: &str, subresource: &str, namespace: &str, name: &str) -> RequestInfo {
    RequestInfo {
        resource_request: true,
        verb: "impersonate".into(),
        api_group: api_group.into(),
        resource: resource.into(),
        subresource: subresource.into(),
        namespace: namespace.into(),
        name: name.into(),
        ..RequestInfo::default()
    }
}

/// The checks `r` needs, and the user it makes.
fn checks_and_user(r: &Requested) -> (Vec<RequestInfo>, UserInfo) {
    let username = r.user.clone().unwrap_or_default();
    let mut checks = Vec::new();
    let mut groups = Vec::new();
    match split_username(&username) {
        Some((namespace, name)) => {
            checks.push(impersonate("", "serviceaccounts", "", namespace, name));
            // The service account groups, unless the headers name the groups themselves.
            if r.groups.is_empty() {
                groups.push(SERVICE_ACCOUNTS_GROUP.to_string());
                groups.push(format!("{SERVICE_ACCOUNTS_GROUP}:{namespace}"));
            }
        }
        None => checks.push(impersonate("", "users", "", "", &username)),
    }
    for group in &r.groups {
        checks.push(impersonate("", "groups", "", "", group));
        if !groups.contains(group) {
            groups.push(group.clone());
        }
    }
    let mut user = UserInfo {
        username: username.clone(),
        uid: r.uid.clone().unwrap_or_default(),
        ..UserInfo::default()
    };
    for (key, value) in &r.extra {
        checks.push(impersonate("authentication.k8s.io", "userextras", key, "", value));
        user.extra.entry(key.clone()).or_default().push(value.clone());
    }
    if let Some(uid) = &r.uid {
        checks.push(impersonate("authentication.k8s.io", "uids", "", "", uid));
    }
    if username == ANONYMOUS {
        if !groups.iter().any(|g| g == UNAUTHENTICATED) {
            groups.push(UNAUTHENTICATED.to_string());
        }
    } else if !groups.iter().any(|g| g == SYSTEM_AUTHENTICATED || g == UNAUTHENTICATED) {
        groups.push(SYSTEM_AUTHENTICATED.to_string());
    }
    user.groups = groups;
    (checks, user)
}

/// The middleware: after authentication, before authorization.
pub async fn impersonation(State(filters): State<Arc<super::Filters>>, mut request: Request, next: Next) -> Response {
    let asked = match requested(request.headers()) {
        Ok(None) => return next.run(request).await,
        Ok(Some(asked)) => asked,
        Err(why) => return ApiError::bad_request(why).into_response(),
    };
    let requester = user_of(request.extensions());
    let (checks, user) = checks_and_user(&asked);
    if let Some(authorization) = &filters.authorization {
        authorization.ready().await;
        for check in &checks {
            let attributes = Attributes {
                user: &requester,
                request: check,
            };
            match authorization.decide(&attributes) {
                Decision::Allow => {}
                Decision::Deny(why) | Decision::NoOpinion(why) => {
                    return crate::authorization::forbidden(&attributes, &why).into_response();
                }
            }
        }
    }
    let headers = request.headers_mut();
    let names: Vec<http::HeaderName> = headers
        .keys()
        .filter(|n| n.as_str().starts_with("impersonate-"))
        .cloned()
        .collect();
    for name in names {
        headers.remove(name);
    }
    if let Some(notes) = request.extensions().get::<crate::audit::Notes>() {
        notes.impersonates(&user);
    }
    request.extensions_mut().insert(ImpersonatedBy(requester));
    request.extensions_mut().insert(user);
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> http::HeaderMap {
        let mut h = http::HeaderMap::new();
        for (k, v) in pairs {
            h.append(http::HeaderName::from_bytes(k.as_bytes()).unwrap(), v.parse().unwrap());
        }
        h
    }

    #[test]
    fn a_user_with_groups_and_extras_is_checked_on_each() {
        let r = requested(&headers(&[
            ("Impersonate-User", "bob"),
            ("Impersonate-Group", "dev"),
            ("Impersonate-Group", "ops"),
            ("Impersonate-Extra-Scopes%2Fa", "view"),
        ]))
        .unwrap()
        .unwrap();
        let (checks, user) = checks_and_user(&r);
        let described: Vec<_> = checks
            .iter()
            .map(|c| format!("{}/{}/{}/{}", c.api_group, c.resource, c.subresource, c.name))
            .collect();
        assert_eq!(
            described,
            [
                "/users//bob",
                "/groups//dev",
                "/groups//ops",
                "authentication.k8s.io/userextras/scopes/a/view"
            ]
        );
        assert_eq!(user.username, "bob");
        assert_eq!(user.groups, ["dev", "ops", "system:authenticated"]);
        assert_eq!(user.extra["scopes/a"], ["view"]);
    }

    #[test]
    fn named_groups_replace_a_service_accounts_own() {
        let r = requested(&headers(&[
            ("Impersonate-User", "system:serviceaccount:t:builder"),
            ("Impersonate-Group", "dev"),
        ]))
        .unwrap()
        .unwrap();
        assert_eq!(checks_and_user(&r).1.groups, ["dev", "system:authenticated"]);
    }

    #[test]
    fn a_service_account_is_impersonated_in_its_namespace() {
        let r = requested(&headers(&[("Impersonate-User", "system:serviceaccount:t:builder")]))
            .unwrap()
            .unwrap();
        let (checks, user) = checks_and_user(&r);
        assert_eq!(checks[0].resource, "serviceaccounts");
        assert_eq!(
            (checks[0].namespace.as_str(), checks[0].name.as_str()),
            ("t", "builder")
        );
        assert_eq!(
            user.groups,
            [
                "system:serviceaccounts",
                "system:serviceaccounts:t",
                "system:authenticated"
            ]
        );
    }

    #[test]
    fn groups_without_a_user_are_refused_and_no_headers_are_nothing() {
        assert_eq!(requested(&headers(&[])).unwrap(), None);
        let why = requested(&headers(&[("Impersonate-Group", "system:masters")])).unwrap_err();
        assert_eq!(
            why,
            "requested [{Group  system:masters    }] without impersonating a user"
        );
        let r = requested(&headers(&[("Impersonate-User", ANONYMOUS)]))
            .unwrap()
            .unwrap();
        assert_eq!(checks_and_user(&r).1.groups, [UNAUTHENTICATED]);
    }
}
