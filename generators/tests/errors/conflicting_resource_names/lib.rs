//! Bad input: two kinds that map to the same resource `widgets` through `+resourceName`.

pub mod widgets;
