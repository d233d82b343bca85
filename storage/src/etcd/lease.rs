//! Leases for keys written with a TTL, shared between writes as kube-apiserver's lease manager
//! shares them: one lease per TTL window rather than one per key, so a burst of Events costs etcd
//! one lease, not thousands. A lease is reused while it outlives the requested TTL but by no more
//! than the reuse window (5% of the TTL, at most a minute), and for at most 1,000 keys; a new one
//! is granted for the TTL plus that window.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The longest a key may outlive its TTL because it shares an older key's lease.
const REUSE_MAX: Duration = Duration::from_secs(60);

/// The share of the TTL a key may outlive it by, below [`REUSE_MAX`].
const REUSE_SHARE: f64 = 0.05;

/// The most keys attached to one lease before a new one is granted.
const MAX_ATTACHED: u64 = 1000;

/// The last lease granted, for the writes that can share it.
#[derive(Default)]
pub(super) struct Leases {
    last: Mutex<Option<Granted>>,
}

#[derive(Clone, Copy, Debug)]
struct Granted {
    id: i64,
    expires: Instant,
    attached: u64,
}

/// What a write with a TTL attaches its key to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lease {
    /// A lease granted earlier, still good for this TTL.
    Reuse(i64),
    /// None fits: grant one of this many seconds and [`Leases::granted`] it.
    Grant(i64),
}

/// The reuse window for a TTL of `ttl` seconds.
fn reuse_window(ttl: i64) -> i64 {
    ((ttl as f64 * REUSE_SHARE) as i64).min(REUSE_MAX.as_secs() as i64)
}

impl Leases {
    /// The lease for a key that must live `ttl` seconds from `now`.
    pub(super) fn for_ttl(&self, ttl: i64, now: Instant) -> Lease {
        let window = reuse_window(ttl);
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(granted) = last.as_mut() {
            let lives_long_enough = now + secs(ttl) < granted.expires;
            let not_too_long = now + secs(ttl + window) > granted.expires;
            if lives_long_enough && not_too_long && granted.attached < MAX_ATTACHED {
                granted.attached += 1;
                return Lease::Reuse(granted.id);
            }
        }
        Lease::Grant(ttl + window)
    }

    /// Records a lease of `ttl` seconds granted at `at`, with one key attached, for later writes.
    pub(super) fn granted(&self, id: i64, ttl: i64, at: Instant) {
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        *last = Some(Granted {
            id,
            expires: at + secs(ttl),
            attached: 1,
        });
    }

    /// Forgets lease `id`, which etcd no longer has (revoked, or lost with its data).
    pub(super) fn forget(&self, id: i64) {
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if last.is_some_and(|g| g.id == id) {
            *last = None;
        }
    }
}

fn secs(n: i64) -> Duration {
    Duration::from_secs(n.max(0) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_hour_long_ttl_shares_a_lease_for_a_minute() {
        let leases = Leases::default();
        let t0 = Instant::now();
        assert_eq!(leases.for_ttl(3600, t0), Lease::Grant(3660));
        leases.granted(7, 3660, t0);
        assert_eq!(leases.for_ttl(3600, t0 + Duration::from_secs(59)), Lease::Reuse(7));
        // A key written a minute later would outlive its TTL by less than nothing: a new lease.
        assert_eq!(leases.for_ttl(3600, t0 + Duration::from_secs(60)), Lease::Grant(3660));
        // A much shorter TTL would be kept alive far too long by the hour's lease.
        assert_eq!(leases.for_ttl(60, t0), Lease::Grant(63));
    }

    #[test]
    fn a_lease_carries_at_most_a_thousand_keys() {
        let leases = Leases::default();
        let t0 = Instant::now();
        leases.granted(1, 3660, t0);
        let later = t0 + Duration::from_secs(1);
        for _ in 1..MAX_ATTACHED {
            assert_eq!(leases.for_ttl(3600, later), Lease::Reuse(1));
        }
        assert_eq!(leases.for_ttl(3600, later), Lease::Grant(3660));
    }

    #[test]
    fn short_ttls_get_no_window_and_a_forgotten_lease_is_not_reused() {
        let leases = Leases::default();
        let t0 = Instant::now();
        assert_eq!(leases.for_ttl(2, t0), Lease::Grant(2));
        leases.granted(3, 2, t0);
        // Without a window, no later key fits the lease exactly.
        assert_eq!(leases.for_ttl(2, t0), Lease::Grant(2));
        leases.granted(4, 3660, t0);
        leases.forget(4);
        assert_eq!(leases.for_ttl(3600, t0), Lease::Grant(3660));
    }
}
