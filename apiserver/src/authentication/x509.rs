//! A client certificate as a user, as kube-apiserver's x509 authenticator reads it: the
//! subject's common name is the user and each organization a group. The chain was verified
//! against `--client-ca-file` when the connection was made.

use rustls::pki_types::CertificateDer;
use x509_parser::prelude::{FromDer, X509Certificate};

use async_trait::async_trait;

use super::{Credentials, UserInfo};

/// The user of a verified client certificate; `None` when it names no one (no common name).
pub fn user(certificate: &CertificateDer<'_>) -> Option<UserInfo> {
    let (_, parsed) = X509Certificate::from_der(certificate.as_ref()).ok()?;
    let subject = parsed.subject();
    let username = subject
        .iter_common_name()
        .next()
        .and_then(|cn| cn.as_str().ok())
        .filter(|cn| !cn.is_empty())?
        .to_string();
    let groups = subject
        .iter_organization()
        .filter_map(|o| o.as_str().ok())
        .map(str::to_string)
        .collect();
    Some(UserInfo {
        username,
        groups,
        ..UserInfo::default()
    })
}

/// `--client-ca-file`'s authenticator: the user of the verified client certificate a request
/// came with (the TLS layer verified it against the CA), nothing for a request without one.
pub struct ClientCertificates;

#[async_trait]
impl super::Authenticator for ClientCertificates {
    async fn authenticate(&self, request: &Credentials<'_>) -> Result<Option<UserInfo>, String> {
        Ok(request.certificates.and_then(|chain| chain.0.first()).and_then(user))
    }
}
