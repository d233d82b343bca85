//! Bad input: a field of an API type is compiled only under `cfg(feature = "extra")`; a `cfg(test)` module is skipped.

pub mod widgets;
