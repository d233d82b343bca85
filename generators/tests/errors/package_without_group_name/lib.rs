//! Bad input: package tags in a `v1` directory whose group has no `+groupName`, here or in its parent.

pub mod widgets;
