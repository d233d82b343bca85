//! Bad input: a package tagged `+k8s:openapi-gen=true` holds an enum with data variants, which
//! has no OpenAPI form.

pub mod widgets;
