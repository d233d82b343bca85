//! Bad input: a `+default=` JSON object that does not decode as the field's type (`size` is an
//! integer, the default gives a string), so applying it could never work.

pub mod widgets;
