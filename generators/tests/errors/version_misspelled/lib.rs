//! Bad input: a version module spelled `v1Beta1` would silently become the group's internal package.

pub mod widgets;
