//! Bad input: a `+union` struct has two `+unionDiscriminator` fields and a required member.

pub mod widgets;
