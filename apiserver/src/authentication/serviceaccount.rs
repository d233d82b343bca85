//! The names a service account's user has (k8s.io/apiserver's
//! `pkg/authentication/serviceaccount`): `system:serviceaccount:<namespace>:<name>`, in the groups
//! `system:serviceaccounts` and `system:serviceaccounts:<namespace>`. The tokens themselves are
//! the issuing server's.

/// The group of every service account, and the prefix of a namespace's group.
pub const SERVICE_ACCOUNTS_GROUP: &str = "system:serviceaccounts";
/// The prefix of a service account's user name.
pub const USER_PREFIX: &str = "system:serviceaccount:";

/// The namespace and name of a service account user (`system:serviceaccount:<ns>:<name>`).
pub fn split_username(username: &str) -> Option<(&str, &str)> {
    let rest = username.strip_prefix(USER_PREFIX)?;
    let (namespace, name) = rest.split_once(':')?;
    (!namespace.is_empty() && !name.is_empty() && !name.contains(':')).then_some((namespace, name))
}
