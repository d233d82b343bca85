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

#[test]
fn tokens_then_anonymous() {
    let auth = Authentication {
        tokens: Some(tokens()),
        ..Authentication::default()
    };
    let alice = auth.authenticate(&bearer("s3cret"), None).unwrap();
    assert_eq!(alice.groups, ["dev", "ops", "system:authenticated"]);
    assert_eq!(auth.authenticate(&bearer("wrong"), None), Err(Refusal::Unauthorized));
    assert_eq!(auth.authenticate(&HeaderMap::new(), None), Err(Refusal::Unauthorized));

    let open = Authentication {
        anonymous: true,
        ..auth
    };
    let anonymous = open.authenticate(&HeaderMap::new(), None).unwrap();
    assert_eq!(anonymous.username, "system:anonymous");
    assert_eq!(anonymous.groups, ["system:unauthenticated"]);
    // A wrong token is refused even when anonymous requests are allowed.
    assert_eq!(open.authenticate(&bearer("wrong"), None), Err(Refusal::Unauthorized));
}

#[test]
fn a_client_certificate_names_the_user_and_groups() {
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
    let carol = auth.authenticate(&bearer("s3cret"), Some(&chain)).unwrap();
    assert_eq!(
        carol,
        UserInfo {
            username: "carol".into(),
            groups: vec!["admins".into(), "system:authenticated".into()],
            ..UserInfo::default()
        }
    );
}
