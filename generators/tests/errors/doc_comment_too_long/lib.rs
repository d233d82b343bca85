//! Bad input: a doc comment of about 70,000 bytes, longer than a doc comment may be.

pub mod widgets;
