//! ServiceAccount tokens as kube-apiserver issues and checks them: JWTs signed with
//! `--service-account-signing-key-file` (RS256 for RSA keys, ES256/ES384 for P-256/P-384 keys),
//! named by the SHA-256 of the public key (`kid`), carrying Kubernetes' private claims
//! (`kubernetes.io`: namespace and service account), and verified against
//! `--service-account-key-file`'s keys, the issuers (`--service-account-issuer`, the first signs)
//! and the API audiences (`--api-audiences`, the issuer when not given), with expiry honoured.
//!
//! A token whose issuer is not one of ours is not this authenticator's to judge (another
//! authenticator may know it); one that is ours but fails a check is refused with why.

mod authenticator;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

pub use authenticator::{ServiceAccountAuthenticator, ServiceAccounts};
use kube_generic_apiserver::authentication::UserInfo;
pub use kube_generic_apiserver::authentication::serviceaccount::{SERVICE_ACCOUNTS_GROUP, USER_PREFIX, split_username};

/// The issuer kind and kubeadm clusters use, the default when none is given.
pub const DEFAULT_ISSUER: &str = "https://kubernetes.default.svc.cluster.local";
/// A token's lifetime when the request does not say (TokenRequest's default).
pub const DEFAULT_EXPIRATION_SECONDS: i64 = 3600;
/// The clock skew allowed on a token's times, in seconds.
const LEEWAY: i64 = 60;

/// What the `kubernetes.io` claim says about the service account.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    /// Its name.
    pub name: String,
    /// Its uid when the token was issued.
    pub uid: String,
}

/// Kubernetes' private claims.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Private {
    /// The service account's namespace.
    pub namespace: String,
    /// The service account.
    pub serviceaccount: Reference,
}

/// The claims of a ServiceAccount token.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The audiences the token is meant for.
    pub aud: Vec<String>,
    /// When it expires (seconds since the epoch).
    pub exp: i64,
    /// When it was issued.
    pub iat: i64,
    /// The issuer.
    pub iss: String,
    /// The token's own id.
    #[serde(default)]
    pub jti: String,
    /// Kubernetes' claims.
    #[serde(rename = "kubernetes.io")]
    pub kubernetes: Private,
    /// Not valid before.
    pub nbf: i64,
    /// `system:serviceaccount:<namespace>:<name>`.
    pub sub: String,
}

impl Claims {
    /// The user the token stands for: the service account's name, its uid, its groups and the
    /// token's id as the credential.
    pub fn user(&self) -> UserInfo {
        let Private {
            namespace,
            serviceaccount,
        } = &self.kubernetes;
        let mut user = UserInfo {
            username: format!("{USER_PREFIX}{namespace}:{}", serviceaccount.name),
            uid: serviceaccount.uid.clone(),
            groups: vec![
                SERVICE_ACCOUNTS_GROUP.to_string(),
                format!("{SERVICE_ACCOUNTS_GROUP}:{namespace}"),
            ],
            ..UserInfo::default()
        };
        if !self.jti.is_empty() {
            user.extra.insert(
                "authentication.kubernetes.io/credential-id".into(),
                vec![format!("JTI={}", self.jti)],
            );
        }
        user
    }
}

/// A key that signs, with its algorithm and name.
struct Signer {
    key: EncodingKey,
    algorithm: Algorithm,
    kid: String,
}

/// A key that verifies.
struct Verifier {
    key: DecodingKey,
    algorithm: Algorithm,
}

/// What a token's check found.
#[derive(Debug, PartialEq, Eq)]
pub enum Checked {
    /// Not a JWT of one of our issuers: another authenticator may know it.
    NotOurs,
    /// Ours, and refused: why.
    Invalid(String),
    /// Ours and valid: its claims, and the audiences it was checked against that it carries.
    Valid(Box<Claims>, Vec<String>),
}

/// The server's ServiceAccount token issuer and verifier.
pub struct ServiceAccountTokens {
    issuers: Vec<String>,
    audiences: Vec<String>,
    signer: Option<Signer>,
    verifiers: Vec<Verifier>,
}

impl std::fmt::Debug for ServiceAccountTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceAccountTokens")
            .field("issuers", &self.issuers)
            .field("audiences", &self.audiences)
            .field("signs", &self.signer.is_some())
            .field("keys", &self.verifiers.len())
            .finish()
    }
}

/// The algorithm and public key (SPKI DER) of a private key in PKCS#8 PEM.
fn public_of(private_pem: &str) -> Result<(Algorithm, Vec<u8>), String> {
    let pair = rcgen::KeyPair::from_pem(private_pem).map_err(|e| format!("not a PKCS#8 private key: {e}"))?;
    let algorithm = if pair.is_compatible(&rcgen::PKCS_ECDSA_P256_SHA256) {
        Algorithm::ES256
    } else if pair.is_compatible(&rcgen::PKCS_ECDSA_P384_SHA384) {
        Algorithm::ES384
    } else if pair.is_compatible(&rcgen::PKCS_RSA_SHA256) {
        Algorithm::RS256
    } else {
        return Err("the key is neither RSA nor ECDSA P-256/P-384".into());
    };
    Ok((algorithm, pair.public_key_der()))
}

/// The PEM blocks of a file's text.
fn pem_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with("-----BEGIN ") {
            current = Some(String::new());
        }
        if let Some(block) = current.as_mut() {
            block.push_str(line);
            block.push('\n');
        }
        if line.starts_with("-----END ") {
            blocks.extend(current.take());
        }
    }
    blocks
}

/// The verifier of one PEM block: a public key (SPKI, or PKCS#1 RSA), or a private key whose
/// public half verifies.
fn verifier(block: &str) -> Result<Verifier, String> {
    if block.contains("PRIVATE KEY-----") {
        let (_, der) = public_of(block)?;
        return spki_verifier(&der);
    }
    let body: String = block.lines().filter(|l| !l.starts_with("-----")).collect();
    let der = base64::engine::general_purpose::STANDARD
        .decode(body.trim())
        .map_err(|e| format!("a PEM block is not base64: {e}"))?;
    if block.contains("BEGIN RSA PUBLIC KEY") {
        return Ok(Verifier {
            key: DecodingKey::from_rsa_der(&der),
            algorithm: Algorithm::RS256,
        });
    }
    spki_verifier(&der)
}

/// The verifier of a SubjectPublicKeyInfo: RSA, or ECDSA on P-256 or P-384 (told apart by the
/// length of the uncompressed point).
fn spki_verifier(der: &[u8]) -> Result<Verifier, String> {
    use x509_parser::prelude::FromDer;
    const RSA: &str = "1.2.840.113549.1.1.1";
    const EC: &str = "1.2.840.10045.2.1";
    let (_, spki) =
        x509_parser::x509::SubjectPublicKeyInfo::from_der(der).map_err(|e| format!("not a public key: {e}"))?;
    let bits = spki.subject_public_key.data.as_ref();
    let (key, algorithm) = match spki.algorithm.algorithm.to_id_string().as_str() {
        RSA => (DecodingKey::from_rsa_der(bits), Algorithm::RS256),
        EC if bits.len() == 65 => (DecodingKey::from_ec_der(bits), Algorithm::ES256),
        EC if bits.len() == 97 => (DecodingKey::from_ec_der(bits), Algorithm::ES384),
        _ => return Err("the key is neither RSA nor ECDSA P-256/P-384".into()),
    };
    Ok(Verifier { key, algorithm })
}

/// Kubernetes' key id: the unpadded base64url SHA-256 of the public key's SPKI DER.
fn key_id(public_der: &[u8]) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, public_der);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(digest.as_ref())
}

/// Seconds since the epoch of `t`.
pub fn seconds(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

impl ServiceAccountTokens {
    /// Tokens issued by `issuers[0]` for `audiences` (the first issuer when empty), signed with
    /// `signing_key` (PKCS#8 PEM; none: tokens are verified, not issued) and verified with the
    /// keys of `key_files_text` (PEM public or private keys; the signing key's own public half
    /// when empty).
    pub fn new(
        issuers: Vec<String>,
        audiences: Vec<String>,
        signing_key: Option<&str>,
        key_files_text: &[String],
    ) -> Result<Self, String> {
        if issuers.is_empty() {
            return Err("--service-account-issuer: at least one issuer is required".into());
        }
        let audiences = if audiences.is_empty() {
            vec![issuers[0].clone()]
        } else {
            audiences
        };
        let signer = match signing_key {
            None => None,
            Some(pem) => {
                let (algorithm, public) =
                    public_of(pem).map_err(|e| format!("--service-account-signing-key-file: {e}"))?;
                let key = match algorithm {
                    Algorithm::RS256 => EncodingKey::from_rsa_pem(pem.as_bytes()),
                    _ => EncodingKey::from_ec_pem(pem.as_bytes()),
                }
                .map_err(|e| format!("--service-account-signing-key-file: {e}"))?;
                Some(Signer {
                    key,
                    algorithm,
                    kid: key_id(&public),
                })
            }
        };
        let mut verifiers = Vec::new();
        for text in key_files_text {
            let blocks = pem_blocks(text);
            if blocks.is_empty() {
                return Err("--service-account-key-file: no PEM key in the file".into());
            }
            for block in blocks {
                verifiers.push(verifier(&block).map_err(|e| format!("--service-account-key-file: {e}"))?);
            }
        }
        if verifiers.is_empty()
            && let Some(pem) = signing_key
        {
            verifiers.push(verifier(pem)?);
        }
        if verifiers.is_empty() {
            return Err("--service-account-key-file or --service-account-signing-key-file is required".into());
        }
        Ok(ServiceAccountTokens {
            issuers,
            audiences,
            signer,
            verifiers,
        })
    }

    /// Tokens of `issuer` signed with a new P-256 key: for tests and in-process servers.
    pub fn generated(issuer: &str) -> Self {
        let pem = generate_key_pem();
        Self::new(vec![issuer.to_string()], Vec::new(), Some(&pem), &[]).expect("a generated key is valid")
    }

    /// The audiences a token is for when its request names none.
    pub fn audiences(&self) -> &[String] {
        &self.audiences
    }

    /// Whether this server can issue tokens.
    pub fn signs(&self) -> bool {
        self.signer.is_some()
    }

    /// A token for the service account `namespace/name` (of `uid`), for `audiences` (the API
    /// audiences when empty), valid `lifetime` from `now`.
    pub fn issue(
        &self,
        namespace: &str,
        name: &str,
        uid: &str,
        audiences: &[String],
        lifetime: Duration,
        now: SystemTime,
    ) -> Result<(String, Claims), String> {
        let signer = self
            .signer
            .as_ref()
            .ok_or("this server has no --service-account-signing-key-file")?;
        let issued = seconds(now);
        let claims = Claims {
            aud: if audiences.is_empty() {
                self.audiences.clone()
            } else {
                audiences.to_vec()
            },
            exp: issued.saturating_add(i64::try_from(lifetime.as_secs()).unwrap_or(i64::MAX)),
            iat: issued,
            iss: self.issuers[0].clone(),
            jti: uuid::Uuid::new_v4().to_string(),
            kubernetes: Private {
                namespace: namespace.into(),
                serviceaccount: Reference {
                    name: name.into(),
                    uid: uid.into(),
                },
            },
            nbf: issued,
            sub: format!("{USER_PREFIX}{namespace}:{name}"),
        };
        let mut header = Header::new(signer.algorithm);
        header.kid = Some(signer.kid.clone());
        let token = jsonwebtoken::encode(&header, &claims, &signer.key).map_err(|e| e.to_string())?;
        Ok((token, claims))
    }

    /// Checks `token` against `audiences` (the API audiences when empty) at `now`.
    pub fn check(&self, token: &str, audiences: &[String], now: SystemTime) -> Checked {
        // Only a JWT whose issuer is ours is this authenticator's: read the claims unverified
        // first, as kube-apiserver's JWT authenticator does.
        let Some(issuer) = unverified_issuer(token) else {
            return Checked::NotOurs;
        };
        if !self.issuers.contains(&issuer) {
            return Checked::NotOurs;
        }
        let audiences = if audiences.is_empty() {
            &self.audiences[..]
        } else {
            audiences
        };
        let mut signed = None;
        for verifier in &self.verifiers {
            let mut validation = Validation::new(verifier.algorithm);
            // Expiry and audience are checked below, against this call's clock and audiences.
            validation.validate_exp = false;
            validation.validate_aud = false;
            validation.required_spec_claims.clear();
            if let Ok(data) = jsonwebtoken::decode::<Claims>(token, &verifier.key, &validation) {
                signed = Some(data.claims);
                break;
            }
        }
        let Some(claims) = signed else {
            return Checked::Invalid("invalid signature".into());
        };
        // A minute of clock skew either way, as kube-apiserver's JWT validation allows.
        let now = seconds(now);
        if claims.nbf > now + LEEWAY {
            return Checked::Invalid("service account token is not valid yet".into());
        }
        if claims.exp < now - LEEWAY {
            return Checked::Invalid("service account token has expired".into());
        }
        if claims.iat > now + LEEWAY {
            return Checked::Invalid("service account token is issued in the future".into());
        }
        let shared: Vec<String> = audiences.iter().filter(|a| claims.aud.contains(a)).cloned().collect();
        if shared.is_empty() {
            return Checked::Invalid(format!(
                "token audiences {} is invalid for the target audiences {}",
                go_quoted(&claims.aud),
                go_quoted(audiences)
            ));
        }
        if split_username(&claims.sub).is_none()
            || claims.kubernetes.namespace.is_empty()
            || claims.kubernetes.serviceaccount.name.is_empty()
        {
            return Checked::Invalid("the token does not name a service account".into());
        }
        Checked::Valid(Box::new(claims), shared)
    }
}

/// Go's `%q` of a string list: `["a" "b"]`.
fn go_quoted(list: &[String]) -> String {
    let quoted: Vec<String> = list
        .iter()
        .map(|s| kube_apimachinery::validation::go_quote(s))
        .collect();
    format!("[{}]", quoted.join(" "))
}

/// The `iss` claim of a JWT, read without verifying it; `None` when the text is not a JWT.
fn unverified_issuer(token: &str) -> Option<String> {
    let mut parts = token.split('.');
    let (_, payload, _) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .ok()?;
    let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    claims.get("iss")?.as_str().map(str::to_string)
}

/// A new P-256 private key in PKCS#8 PEM.
pub fn generate_key_pem() -> String {
    rcgen::KeyPair::generate()
        .expect("ring generates a P-256 key")
        .serialize_pem()
}

#[cfg(test)]
mod tests;
