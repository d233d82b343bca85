//! Bad input: validation-gen tags written wrongly: a value that is no integer, an argument list without its `)`, a wrapper without its chained tag, an unknown format, a length limit on a number, the package tag on a type, requiredness on a type, a rule on a package, and a value exclusion on a field.

pub mod widgets;
