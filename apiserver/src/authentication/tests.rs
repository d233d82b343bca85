//! Authentication decisions: certificates, tokens and anonymous requests, in kube-apiserver's order.

use http::HeaderMap;

use std::sync::Arc;

use super::x509::ClientCertificates;
use super::{
    AudienceAgnostic, Authenticator, BearerToken, Chain, Credentials, TokenAuthenticator, TokenFile, UserInfo,
};

fn bearer(token: &str) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(http::header::AUTHORIZATION, format!("Bearer {token}").parse().unwrap());
    h
}

fn tokens() -> TokenFile {
    TokenFile::parse("s3cret,alice,1001,\"dev,ops\"\nother,bob,1002\n").unwrap()
}

#[test]
fn a_token_file_is_read_as_kube_apiserver_reads_it() {
    let file = tokens();
    let alice = file.user("s3cret").unwrap();
    assert_eq!((alice.username.as_str(), alice.uid.as_str()), ("alice", "1001"));
    assert_eq!(alice.groups, ["dev", "ops"]);
    assert!(file.user("other").unwrap().groups.is_empty());
    assert_eq!(
        TokenFile::parse("a,b\n").unwrap_err(),
        (
            1,
            "a token line has at least 3 columns (token,user,uid), found 2".to_string()
        )
    );
    assert_eq!(TokenFile::parse("t,u,1\nt,v,2\n").unwrap_err().0, 2);
    assert_eq!(
        TokenFile::parse("t,u,1,\"g").unwrap_err().1,
        "a quoted field is not closed"
    );
}

/// kube-apiserver's chain: client certificates when asked, bearer tokens of `tokens`, anonymous
/// when allowed.
fn chain(certificates: bool, anonymous: bool) -> Chain {
    let mut authenticators: Vec<Arc<dyn Authenticator>> = Vec::new();
    if certificates {
        authenticators.push(Arc::new(ClientCertificates));
    }
    authenticators.push(Arc::new(BearerToken(Arc::new(tokens()))));
    Chain {
        authenticators,
        anonymous,
    }
}

async fn who(
    chain: &Chain,
    headers: &HeaderMap,
    certificates: Option<&super::PeerCertificates>,
) -> Result<Option<UserInfo>, String> {
    chain.authenticate(&Credentials { headers, certificates }).await
}

#[tokio::test]
async fn tokens_then_anonymous() {
    let auth = chain(false, false);
    let alice = who(&auth, &bearer("s3cret"), None).await.unwrap().unwrap();
    assert_eq!(alice.groups, ["dev", "ops", "system:authenticated"]);
    assert_eq!(
        who(&auth, &bearer("wrong"), None).await,
        Err("invalid bearer token".into())
    );
    assert_eq!(who(&auth, &HeaderMap::new(), None).await, Ok(None));

    let open = chain(false, true);
    let anonymous = who(&open, &HeaderMap::new(), None).await.unwrap().unwrap();
    assert_eq!(anonymous.username, "system:anonymous");
    assert_eq!(anonymous.groups, ["system:unauthenticated"]);
    // A wrong token is refused even when anonymous requests are allowed.
    assert!(who(&open, &bearer("wrong"), None).await.is_err());
}

#[tokio::test]
async fn a_client_certificate_names_the_user_and_groups() {
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    params.distinguished_name.push(rcgen::DnType::CommonName, "carol");
    params
        .distinguished_name
        .push(rcgen::DnType::OrganizationName, "admins");
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = params.self_signed(&key).unwrap();
    let chain_of = super::PeerCertificates(Arc::new(vec![cert.der().clone()]));
    let carol = who(&chain(true, false), &bearer("s3cret"), Some(&chain_of))
        .await
        .unwrap();
    assert_eq!(
        carol,
        Some(UserInfo {
            username: "carol".into(),
            groups: vec!["admins".into(), "system:authenticated".into()],
            ..UserInfo::default()
        })
    );
}

#[tokio::test]
async fn static_tokens_are_good_for_the_api_audiences() {
    let agnostic = AudienceAgnostic {
        inner: Arc::new(tokens()),
        api_audiences: vec!["https://issuer.test".into()],
    };
    let found = agnostic.authenticate_token("s3cret", &[]).await.unwrap().unwrap();
    assert_eq!(
        (found.user.username.as_str(), found.audiences),
        ("alice", vec!["https://issuer.test".to_string()])
    );
    let asked = agnostic
        .authenticate_token("s3cret", &["vault".into()])
        .await
        .unwrap()
        .unwrap();
    assert_eq!(asked.audiences, ["vault"]);
    assert_eq!(agnostic.authenticate_token("wrong", &[]).await, Ok(None));
}
