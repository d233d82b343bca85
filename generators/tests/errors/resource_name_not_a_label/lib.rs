//! Bad input: `+resourceName=x/../../escaped` would become a path outside the CRD directory, and `+resourceName=Wid gets` a URL segment.

pub mod widgets;
