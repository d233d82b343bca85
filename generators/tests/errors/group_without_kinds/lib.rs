//! Bad input: a package with `+groupName` whose types include no kind, so there is nothing to register.

pub mod widgets;
