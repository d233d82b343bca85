//! The cache of bearer tokens found valid, as kube-apiserver keeps one in front of its token
//! authenticators (10 s for a success, failures not kept): a ServiceAccount JWT costs a
//! signature check and a read of its account, which a client repeating the same token on every
//! request pays once per period. Entries are keyed by the SHA-256 of the token and the audiences
//! asked, never the token itself, and end with the token's own expiry if that comes first.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;

use super::{TokenAuthenticator, TokenUser, UserInfo};

/// Entries kept at most; past it, expired ones go, and all of them if none has expired.
const CAPACITY: usize = 16_384;

type Key = [u8; 32];
/// Until when an entry holds, the user and the audiences.
type Entry = (Instant, UserInfo, Vec<String>);

/// The cache; clones share it.
#[derive(Clone, Debug)]
pub struct TokenCache {
    ttl: Duration,
    entries: Arc<Mutex<HashMap<Key, Entry>>>,
}

impl Default for TokenCache {
    fn default() -> Self {
        TokenCache::new(Duration::from_secs(10))
    }
}

impl TokenCache {
    /// A cache keeping successes for `ttl` (zero: nothing is kept).
    pub fn new(ttl: Duration) -> Self {
        TokenCache {
            ttl,
            entries: Arc::default(),
        }
    }

    /// The key of `token` asked for `audiences`.
    pub fn key(token: &str, audiences: &[String]) -> Key {
        let mut context = ring::digest::Context::new(&ring::digest::SHA256);
        context.update(token.as_bytes());
        for audience in audiences {
            context.update(b"\0");
            context.update(audience.as_bytes());
        }
        let mut key = [0u8; 32];
        key.copy_from_slice(context.finish().as_ref());
        key
    }

    /// The user and audiences of a token found valid within the period.
    pub fn get(&self, key: &Key) -> Option<(UserInfo, Vec<String>)> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let (until, user, audiences) = entries.get(key)?;
        (Instant::now() < *until).then(|| (user.clone(), audiences.clone()))
    }

    /// Keeps a success until the period ends, or `valid_for` (the token's remaining life) does.
    pub fn put(&self, key: Key, user: &UserInfo, audiences: &[String], valid_for: Duration) {
        if self.ttl.is_zero() {
            return;
        }
        let now = Instant::now();
        let until = now + self.ttl.min(valid_for);
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= CAPACITY {
            entries.retain(|_, (t, _, _)| *t > now);
            if entries.len() >= CAPACITY {
                entries.clear();
            }
        }
        entries.insert(key, (until, user.clone(), audiences.to_vec()));
    }
}

/// A token authenticator behind a cache of its successes (Go's `tokencache`): a token found
/// valid is not checked again for the cache's period or until it expires, whichever comes first.
pub struct Cached {
    /// The authenticator.
    pub inner: std::sync::Arc<dyn TokenAuthenticator>,
    /// Its successes.
    pub cache: TokenCache,
}

#[async_trait]
impl TokenAuthenticator for Cached {
    async fn authenticate_token(&self, token: &str, audiences: &[String]) -> Result<Option<TokenUser>, String> {
        let key = TokenCache::key(token, audiences);
        if let Some((user, audiences)) = self.cache.get(&key) {
            return Ok(Some(TokenUser {
                user,
                audiences,
                expires: None,
            }));
        }
        let found = self.inner.authenticate_token(token, audiences).await?;
        if let Some(found) = &found {
            let left = found
                .expires
                .map(|at| at.duration_since(std::time::SystemTime::now()).unwrap_or_default())
                .unwrap_or(Duration::MAX);
            self.cache.put(key, &found.user, &found.audiences, left);
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn successes_are_kept_for_the_period_or_the_tokens_life() {
        let cache = TokenCache::new(Duration::from_millis(200));
        let user = UserInfo {
            username: "u".into(),
            ..UserInfo::default()
        };
        let key = TokenCache::key("t", &[]);
        assert_ne!(
            key,
            TokenCache::key("t", &["aud".into()]),
            "audiences are part of the key"
        );
        cache.put(key, &user, &["a".into()], Duration::from_secs(60));
        assert_eq!(cache.get(&key).unwrap().0, user);
        let short = TokenCache::key("short", &[]);
        cache.put(short, &user, &[], Duration::from_millis(10));
        std::thread::sleep(Duration::from_millis(30));
        assert!(cache.get(&short).is_none(), "the token expired first");
        assert!(cache.get(&key).is_some());
        std::thread::sleep(Duration::from_millis(200));
        assert!(cache.get(&key).is_none(), "the period ended");
        let off = TokenCache::new(Duration::ZERO);
        off.put(key, &user, &[], Duration::from_secs(60));
        assert!(off.get(&key).is_none());
    }
}
