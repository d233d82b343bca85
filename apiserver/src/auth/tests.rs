//! Authentication decisions: certificates, tokens and anonymous requests, in kube-apiserver's order.

use http::HeaderMap;

use super::{Authentication, Refusal, TokenFile, UserInfo};

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

#[tokio::test]
async fn tokens_then_anonymous() {
    let auth = Authentication {
        tokens: Some(tokens()),
        ..Authentication::default()
    };
    let alice = auth.authenticate(&bearer("s3cret"), None, &NoAccounts).await.unwrap();
    assert_eq!(alice.groups, ["dev", "ops", "system:authenticated"]);
    assert_eq!(
        auth.authenticate(&bearer("wrong"), None, &NoAccounts).await,
        Err(Refusal::Unauthorized)
    );
    assert_eq!(
        auth.authenticate(&HeaderMap::new(), None, &NoAccounts).await,
        Err(Refusal::Unauthorized)
    );

    let open = Authentication {
        anonymous: true,
        ..auth
    };
    let anonymous = open.authenticate(&HeaderMap::new(), None, &NoAccounts).await.unwrap();
    assert_eq!(anonymous.username, "system:anonymous");
    assert_eq!(anonymous.groups, ["system:unauthenticated"]);
    // A wrong token is refused even when anonymous requests are allowed.
    assert_eq!(
        open.authenticate(&bearer("wrong"), None, &NoAccounts).await,
        Err(Refusal::Unauthorized)
    );
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
    let chain = super::PeerCertificates(std::sync::Arc::new(vec![cert.der().clone()]));
    let auth = Authentication {
        client_certificates: true,
        tokens: Some(tokens()),
        ..Authentication::default()
    };
    let carol = auth
        .authenticate(&bearer("s3cret"), Some(&chain), &NoAccounts)
        .await
        .unwrap();
    assert_eq!(
        carol,
        UserInfo {
            username: "carol".into(),
            groups: vec!["admins".into(), "system:authenticated".into()],
            ..UserInfo::default()
        }
    );
}

/// No service account exists.
struct NoAccounts;

#[async_trait::async_trait]
impl super::ServiceAccounts for NoAccounts {
    async fn uid(&self, _: &str, _: &str) -> Option<String> {
        None
    }
}

/// The service account `t/builder`, of uid `u1`.
struct Builder;

#[async_trait::async_trait]
impl super::ServiceAccounts for Builder {
    async fn uid(&self, namespace: &str, name: &str) -> Option<String> {
        (namespace == "t" && name == "builder").then(|| "u1".to_string())
    }
}

#[tokio::test]
async fn service_account_tokens_name_accounts_that_still_exist() {
    use super::service_account::ServiceAccountTokens;
    use std::time::{Duration, SystemTime};
    let issuer = std::sync::Arc::new(ServiceAccountTokens::generated("https://issuer.test"));
    let auth = Authentication {
        service_accounts: Some(issuer.clone()),
        tokens: Some(tokens()),
        // Nothing kept: each call below checks the account anew.
        token_cache: super::token_cache::TokenCache::new(Duration::ZERO),
        ..Authentication::default()
    };
    let hour = Duration::from_secs(3600);
    let (token, _) = issuer
        .issue("t", "builder", "u1", &[], hour, SystemTime::now())
        .unwrap();
    let user = auth.authenticate(&bearer(&token), None, &Builder).await.unwrap();
    assert_eq!(user.username, "system:serviceaccount:t:builder");
    assert_eq!(
        user.groups,
        [
            "system:serviceaccounts",
            "system:serviceaccounts:t",
            "system:authenticated"
        ]
    );
    // Deleted, or deleted and created again (another uid): refused.
    assert_eq!(
        auth.token(&token, &[], &NoAccounts).await.unwrap_err(),
        "service account t/builder has been deleted"
    );
    let (stale, _) = issuer
        .issue("t", "builder", "u0", &[], hour, SystemTime::now())
        .unwrap();
    assert_eq!(
        auth.token(&stale, &[], &Builder).await.unwrap_err(),
        "service account UID (u1) does not match claim (u0)"
    );
    assert_eq!(
        auth.authenticate(&bearer(&stale), None, &Builder).await,
        Err(Refusal::Unauthorized)
    );
    // A cached success outlives the account for the cache's period, as in kube-apiserver.
    let cached = Authentication {
        token_cache: super::token_cache::TokenCache::default(),
        ..auth.clone()
    };
    assert!(cached.token(&token, &[], &Builder).await.is_ok());
    assert!(cached.token(&token, &[], &NoAccounts).await.is_ok());
    // Static tokens still come first, good for the API's audiences.
    let (alice, audiences) = auth.token("s3cret", &[], &NoAccounts).await.unwrap();
    assert_eq!(
        (alice.username.as_str(), audiences),
        ("alice", vec!["https://issuer.test".to_string()])
    );
}
