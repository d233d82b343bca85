//! Bad input: fields that share or borrow data (`Rc`, `&'static str`) cannot be deep-copied.

pub mod widgets;
