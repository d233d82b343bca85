//! Helpers that generated conversion code calls, so that the generated functions stay short:
//! converting into a fresh value, and the zero-value test behind "absent" in optional fields.

use crate::ConversionError;

/// Converts `input` into a new default `B` with a conversion function (`convert_*`), for places
/// where there is no existing value to convert into: elements of lists and maps, optional fields.
pub fn convert_with<A: ?Sized, B: Default>(
    input: &A,
    f: impl FnOnce(&A, &mut B) -> Result<(), ConversionError>,
) -> Result<B, ConversionError> {
    let mut out = B::default();
    f(input, &mut out)?;
    Ok(out)
}

/// Whether a value equals its type's zero value. A non-optional internal field converts to an
/// absent external one when it holds the zero value, as Go's `omitempty` omits it.
pub fn is_zero<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn double(input: &i32, out: &mut i64) -> Result<(), ConversionError> {
        *out = i64::from(*input) * 2;
        Ok(())
    }

    #[test]
    fn convert_with_builds_a_fresh_value() {
        assert_eq!(convert_with(&21, double), Ok(42));
        let failing = |_: &i32, _: &mut i64| Err(ConversionError::Custom("no".into()));
        assert!(convert_with(&1, failing).is_err());
    }

    #[test]
    fn zero_values() {
        assert!(is_zero(&String::new()) && is_zero(&0u8) && is_zero(&Vec::<u8>::new()));
        assert!(!is_zero(&"a".to_string()) && !is_zero(&vec![1]));
    }
}
