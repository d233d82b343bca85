//! The registry: the generic store of one resource ([`store::Store`]), the strategies that
//! prepare and check objects per kind ([`strategy`]), namespace deletion ([`namespace`]), and
//! ObjectMeta on stored JSON ([`meta`]), stored objects written out without parsing ([`stored`]),
//! and the Scheme's validation around a strategy ([`validated`]).

pub mod generic;
pub mod meta;
pub mod store;
pub mod stored;
pub mod strategy;
pub mod validated;

#[cfg(test)]
mod ttl_tests;
