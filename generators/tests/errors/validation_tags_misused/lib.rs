//! Bad input: `+k8s:validation:*` tags that cannot hold: a string bound on a number, a minimum above
//! its maximum, a pattern that does not compile, and CEL rules numbered with a gap and without a rule.

pub mod gadgets;
