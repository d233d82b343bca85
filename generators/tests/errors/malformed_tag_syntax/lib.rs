//! Bad input: `+groupName = widgets.example.dev`: spaces around `=`.

pub mod widgets;
