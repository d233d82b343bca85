//! ServiceAccount tokens issued and checked: the claims kube-apiserver writes, RSA and ECDSA
//! keys, public keys given apart from the signing key, and each hostile token refused with why.

use std::time::{Duration, SystemTime};

use base64::Engine;

use super::*;

const ISSUER: &str = "https://issuer.test";
const RSA_KEY: &str = include_str!("../../tests/data/sa-rsa.key");
const RSA_PUBLIC: &str = include_str!("../../tests/data/sa-rsa.pub");

fn now() -> SystemTime {
    SystemTime::now()
}

fn hour() -> Duration {
    Duration::from_secs(3600)
}

fn payload(token: &str) -> serde_json::Value {
    let part = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(part).unwrap()).unwrap()
}

fn header(token: &str) -> serde_json::Value {
    let part = token.split('.').next().unwrap();
    serde_json::from_slice(&base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(part).unwrap()).unwrap()
}

#[test]
fn an_issued_token_carries_kubernetes_claims_and_names_its_user() {
    let tokens = ServiceAccountTokens::generated(ISSUER);
    let (token, claims) = tokens.issue("t", "builder", "uid-1", &[], hour(), now()).unwrap();
    let body = payload(&token);
    assert_eq!(body["iss"], ISSUER);
    assert_eq!(body["sub"], "system:serviceaccount:t:builder");
    assert_eq!(
        body["aud"],
        serde_json::json!([ISSUER]),
        "the API audiences default to the issuer"
    );
    assert_eq!(body["kubernetes.io"]["namespace"], "t");
    assert_eq!(body["kubernetes.io"]["serviceaccount"]["uid"], "uid-1");
    assert_eq!(body["exp"].as_i64().unwrap() - body["iat"].as_i64().unwrap(), 3600);
    let head = header(&token);
    assert_eq!(head["alg"], "ES256");
    assert_eq!(
        head["kid"].as_str().unwrap().len(),
        43,
        "the unpadded base64url of a SHA-256"
    );

    let Checked::Valid(checked, audiences) = tokens.check(&token, &[], now()) else {
        panic!("a fresh token is valid")
    };
    assert_eq!(*checked, claims);
    assert_eq!(audiences, [ISSUER]);
    let user = checked.user();
    assert_eq!(user.username, "system:serviceaccount:t:builder");
    assert_eq!(user.uid, "uid-1");
    assert_eq!(user.groups, ["system:serviceaccounts", "system:serviceaccounts:t"]);
    assert_eq!(
        user.extra["authentication.kubernetes.io/credential-id"],
        [format!("JTI={}", claims.jti)]
    );
}

#[test]
fn rsa_keys_sign_and_public_keys_verify() {
    let signer = ServiceAccountTokens::new(vec![ISSUER.into()], vec![], Some(RSA_KEY), &[]).unwrap();
    let (token, _) = signer.issue("t", "a", "u", &[], hour(), now()).unwrap();
    assert_eq!(header(&token)["alg"], "RS256");
    // A server that only verifies, with the public key in its own file.
    let verifier = ServiceAccountTokens::new(vec![ISSUER.into()], vec![], None, &[RSA_PUBLIC.into()]).unwrap();
    assert!(!verifier.signs());
    assert!(matches!(verifier.check(&token, &[], now()), Checked::Valid(..)));
    assert!(verifier.issue("t", "a", "u", &[], hour(), now()).is_err());
    // And the private key file verifies too, as kube-apiserver accepts it.
    let from_private = ServiceAccountTokens::new(vec![ISSUER.into()], vec![], None, &[RSA_KEY.into()]).unwrap();
    assert!(matches!(from_private.check(&token, &[], now()), Checked::Valid(..)));
}

#[test]
fn hostile_tokens_are_refused_with_why() {
    let tokens = ServiceAccountTokens::generated(ISSUER);
    let (token, _) = tokens.issue("t", "a", "u", &[], hour(), now()).unwrap();

    let later = now() + Duration::from_secs(3661);
    assert_eq!(
        tokens.check(&token, &[], later),
        Checked::Invalid("service account token has expired".into())
    );

    // Within a minute of expiry is allowed for clock skew.
    assert!(matches!(
        tokens.check(&token, &[], now() + Duration::from_secs(3650)),
        Checked::Valid(..)
    ));
    let (future, _) = tokens
        .issue("t", "a", "u", &[], hour(), now() + Duration::from_secs(600))
        .unwrap();
    assert_eq!(
        tokens.check(&future, &[], now()),
        Checked::Invalid("service account token is not valid yet".into())
    );

    let forger = ServiceAccountTokens::generated(ISSUER);
    let (forged, _) = forger.issue("t", "a", "u", &[], hour(), now()).unwrap();
    assert_eq!(
        tokens.check(&forged, &[], now()),
        Checked::Invalid("invalid signature".into())
    );

    // A valid signature over changed claims is not.
    let mut parts: Vec<String> = token.split('.').map(str::to_string).collect();
    let mut body = payload(&token);
    body["kubernetes.io"]["namespace"] = "kube-system".into();
    parts[1] = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(body.to_string());
    assert_eq!(
        tokens.check(&parts.join("."), &[], now()),
        Checked::Invalid("invalid signature".into())
    );

    let (elsewhere, _) = tokens
        .issue("t", "a", "u", &["https://vault".into()], hour(), now())
        .unwrap();
    assert_eq!(
        tokens.check(&elsewhere, &[], now()),
        Checked::Invalid(
            "token audiences [\"https://vault\"] is invalid for the target audiences [\"https://issuer.test\"]".into()
        )
    );
    assert!(matches!(
        tokens.check(&elsewhere, &["https://vault".into()], now()),
        Checked::Valid(..)
    ));

    for malformed in ["", "abc", "a.b.c", "a.b.c.d", "..", "eyJhbGciOiJub25lIn0.e30."] {
        assert_eq!(tokens.check(malformed, &[], now()), Checked::NotOurs, "{malformed:?}");
    }
    let other = ServiceAccountTokens::generated("https://other.test");
    let (theirs, _) = other.issue("t", "a", "u", &[], hour(), now()).unwrap();
    assert_eq!(tokens.check(&theirs, &[], now()), Checked::NotOurs);

    // `alg: none` with our issuer is refused, not trusted.
    let claims = payload(&token);
    let unsigned = format!(
        "{}.{}.",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(r#"{"alg":"none"}"#),
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    assert_eq!(
        tokens.check(&unsigned, &[], now()),
        Checked::Invalid("invalid signature".into())
    );
}

#[test]
fn bad_key_files_are_errors_that_name_the_flag() {
    let none = ServiceAccountTokens::new(vec![ISSUER.into()], vec![], None, &[]).unwrap_err();
    assert!(none.contains("--service-account-key-file"), "{none}");
    let garbage = ServiceAccountTokens::new(vec![ISSUER.into()], vec![], None, &["hello".into()]).unwrap_err();
    assert!(garbage.contains("no PEM key"), "{garbage}");
    let bad = ServiceAccountTokens::new(
        vec![ISSUER.into()],
        vec![],
        Some("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
        &[],
    )
    .unwrap_err();
    assert!(bad.starts_with("--service-account-signing-key-file"), "{bad}");
    assert!(ServiceAccountTokens::new(vec![], vec![], Some(RSA_KEY), &[]).is_err());
}

#[test]
fn service_account_user_names_split() {
    assert_eq!(split_username("system:serviceaccount:t:a"), Some(("t", "a")));
    assert_eq!(split_username("system:serviceaccount:t"), None);
    assert_eq!(split_username("system:serviceaccount:t:a:b"), None);
    assert_eq!(split_username("alice"), None);
}

/// No service account exists.
struct NoAccounts;

#[async_trait::async_trait]
impl ServiceAccounts for NoAccounts {
    async fn uid(&self, _: &str, _: &str) -> Option<String> {
        None
    }
}

/// The service account `t/builder`, of uid `u1`.
struct Builder;

#[async_trait::async_trait]
impl ServiceAccounts for Builder {
    async fn uid(&self, namespace: &str, name: &str) -> Option<String> {
        (namespace == "t" && name == "builder").then(|| "u1".to_string())
    }
}

#[tokio::test]
async fn service_account_tokens_name_accounts_that_still_exist() {
    use kube_generic_apiserver::authentication::TokenAuthenticator;
    use kube_generic_apiserver::authentication::token_cache::{Cached, TokenCache};
    use std::sync::Arc;
    let issuer = Arc::new(ServiceAccountTokens::generated("https://issuer.test"));
    let authenticator = |accounts: Arc<dyn ServiceAccounts>| ServiceAccountAuthenticator {
        tokens: issuer.clone(),
        accounts,
    };
    let (token, _) = issuer.issue("t", "builder", "u1", &[], hour(), now()).unwrap();
    let found = authenticator(Arc::new(Builder))
        .authenticate_token(&token, &[])
        .await
        .unwrap()
        .unwrap();
    assert_eq!(found.user.username, "system:serviceaccount:t:builder");
    assert_eq!(
        found.user.groups,
        ["system:serviceaccounts", "system:serviceaccounts:t"]
    );
    assert_eq!(found.audiences, ["https://issuer.test"]);
    // Deleted, or deleted and created again (another uid): refused.
    assert_eq!(
        authenticator(Arc::new(NoAccounts))
            .authenticate_token(&token, &[])
            .await,
        Err("service account t/builder has been deleted".into())
    );
    let (stale, _) = issuer.issue("t", "builder", "u0", &[], hour(), now()).unwrap();
    assert_eq!(
        authenticator(Arc::new(Builder)).authenticate_token(&stale, &[]).await,
        Err("service account UID (u1) does not match claim (u0)".into())
    );
    // Not one of ours: another authenticator may know it.
    assert_eq!(
        authenticator(Arc::new(Builder)).authenticate_token("s3cret", &[]).await,
        Ok(None)
    );
    // A cached success outlives the account for the cache's period, as in kube-apiserver.
    let cached = Cached {
        inner: Arc::new(authenticator(Arc::new(Builder))),
        cache: TokenCache::default(),
    };
    assert!(cached.authenticate_token(&token, &[]).await.unwrap().is_some());
    let gone = Cached {
        inner: Arc::new(authenticator(Arc::new(NoAccounts))),
        cache: cached.cache.clone(),
    };
    assert!(gone.authenticate_token(&token, &[]).await.unwrap().is_some());
}
