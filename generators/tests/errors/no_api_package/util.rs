//! Plain code, no API types.

/// Adds one.
pub fn add_one(x: i32) -> i32 {
    x + 1
}
