//! Bad input: v1 names itself as its conversion hub.

pub mod widgets;
