//! The round trip of every kind through the server (`round_trip.rs`), in a process of its own:
//! the kube_apiserver test binary leaves a hundred test servers running behind it, whose
//! background work slowed this test, which sends thousands of requests, from 35 s to over 10
//! minutes when it ran there.

#[path = "../kube_apiserver/support/mod.rs"]
mod support;

mod round_trip;
