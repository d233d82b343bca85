//! What the tests share: proptest strategies of the internal kinds.

pub mod internal;
