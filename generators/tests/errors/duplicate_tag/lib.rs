//! Bad input: `+genclient` written twice on one kind.

pub mod widgets;
