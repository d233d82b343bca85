//! Bad input: `input=` on a `get` method, which client-gen allows only for create, update and apply.

pub mod widgets;
