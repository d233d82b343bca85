//! Bad input: the kind `Wïdget` derives the resource name `wïdgets`, which is no DNS label.

pub mod widgets;
