//! The hand-written JSON of apiextensions' schema unions (apis/src/apiextensions/v1/marshal.rs,
//! compiled into v1 and v1beta1): what Go reads and writes for `JSONSchemaPropsOrArray`, `OrBool`
//! and `OrStringArray`, nulls and floats, checked for both versions.

mod v1 {
    use apis::apiextensions::v1 as api;
    include!("marshal_cases.rs");
}

mod v1beta1 {
    use apis::apiextensions::v1beta1 as api;
    include!("marshal_cases.rs");
}
