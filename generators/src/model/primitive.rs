//! Rust's primitive types as API fields use them, with what generators need to know of each:
//! how it is written, whether it is an integer or a float, and the range of an integer.

use std::fmt;

/// A primitive type of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Primitive {
    Bool,
    Char,
    I8,
    I16,
    I32,
    I64,
    I128,
    Isize,
    U8,
    U16,
    U32,
    U64,
    U128,
    Usize,
    F32,
    F64,
}

impl Primitive {
    /// Every primitive, with its name.
    const ALL: [(Primitive, &'static str); 16] = [
        (Primitive::Bool, "bool"),
        (Primitive::Char, "char"),
        (Primitive::I8, "i8"),
        (Primitive::I16, "i16"),
        (Primitive::I32, "i32"),
        (Primitive::I64, "i64"),
        (Primitive::I128, "i128"),
        (Primitive::Isize, "isize"),
        (Primitive::U8, "u8"),
        (Primitive::U16, "u16"),
        (Primitive::U32, "u32"),
        (Primitive::U64, "u64"),
        (Primitive::U128, "u128"),
        (Primitive::Usize, "usize"),
        (Primitive::F32, "f32"),
        (Primitive::F64, "f64"),
    ];

    /// The primitive a name denotes (`i32`).
    pub fn parse(name: &str) -> Option<Primitive> {
        Self::ALL.iter().find(|(_, n)| *n == name).map(|(p, _)| *p)
    }

    /// The type as Rust writes it.
    pub fn as_str(self) -> &'static str {
        Self::ALL.iter().find(|(p, _)| *p == self).map_or("?", |(_, n)| n)
    }

    /// Whether it is `f32` or `f64`.
    pub fn is_float(self) -> bool {
        matches!(self, Primitive::F32 | Primitive::F64)
    }

    /// Whether it is an integer type.
    pub fn is_integer(self) -> bool {
        self.int_range().is_some()
    }

    /// Whether it is a number (integer or float).
    pub fn is_number(self) -> bool {
        self.is_integer() || self.is_float()
    }

    /// Whether it holds 64 bits or more (OpenAPI's `int64` format).
    pub fn is_wide(self) -> bool {
        matches!(
            self,
            Primitive::I64 | Primitive::U64 | Primitive::Isize | Primitive::Usize | Primitive::I128 | Primitive::U128
        )
    }

    /// The values an integer type holds (clamped to `i128`).
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            Primitive::I8 => (i8::MIN.into(), i8::MAX.into()),
            Primitive::I16 => (i16::MIN.into(), i16::MAX.into()),
            Primitive::I32 => (i32::MIN.into(), i32::MAX.into()),
            Primitive::I64 | Primitive::Isize => (i64::MIN.into(), i64::MAX.into()),
            Primitive::I128 => (i128::MIN, i128::MAX),
            Primitive::U8 => (0, u8::MAX.into()),
            Primitive::U16 => (0, u16::MAX.into()),
            Primitive::U32 => (0, u32::MAX.into()),
            Primitive::U64 | Primitive::Usize | Primitive::U128 => (0, i128::MAX),
            Primitive::Bool | Primitive::Char | Primitive::F32 | Primitive::F64 => return None,
        })
    }
}

impl fmt::Display for Primitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (p, n) in Primitive::ALL {
            assert_eq!(Primitive::parse(n), Some(p));
            assert_eq!(p.as_str(), n);
        }
        assert_eq!(Primitive::parse("String"), None);
        assert!(Primitive::I32.is_integer() && !Primitive::Bool.is_number() && Primitive::F64.is_float());
        assert_eq!(Primitive::U8.int_range(), Some((0, 255)));
    }
}
