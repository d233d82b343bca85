//! Bad input: a CRD kind whose spec nests a large type eight ways at every level, so its CRD is past the 1.5 MiB etcd stores.

pub mod gadgets;
