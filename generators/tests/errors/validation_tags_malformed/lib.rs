//! Bad input: validation-gen tags written wrongly: a value that is no integer, an argument list without its `)`, a wrapper without its chained tag, an unknown format, a length limit on a number, and the package tag on a type.

pub mod widgets;
