//! Bad input: CEL rules and list validations the API server rejects in a CRD: an unknown reason,
//! both a message and a messageExpression, a rule of several lines without a message, and
//! `uniqueItems: true`.

pub mod gadgets;
