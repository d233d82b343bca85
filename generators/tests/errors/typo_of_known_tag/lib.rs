//! Bad input: `+optinal`, a typo of `+optional`.

pub mod widgets;
