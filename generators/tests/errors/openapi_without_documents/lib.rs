//! Bad input: the package asks for OpenAPI definitions, in a run with no documents directory.

pub mod widgets;
