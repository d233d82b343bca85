//! Includes itself.

#[path = "extra.rs"]
mod again;
