//! Bad input: the internal package asks for OpenAPI definitions; it is never published.

pub mod widgets;
