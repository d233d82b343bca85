//! Bad input: `+groupName` written on a struct instead of the package.

pub mod widgets;
