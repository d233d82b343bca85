//! Bad input: the scale subresource's `specpath=.status.replicas` is not under `.spec`, and its `statuspath=.status.name` is a string, not an integer.

pub mod gadgets;
