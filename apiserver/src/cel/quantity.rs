//! Kubernetes' quantity CEL library: `quantity("1.5Gi")`, `isQuantity`, and the methods
//! `isInteger`, `asInteger`, `asApproximateFloat`, `sign`, `add`, `sub`, `isGreaterThan`,
//! `isLessThan` and `compareTo`, exact in decimal as `resource.Quantity` is.

use std::cmp::Ordering;
use std::sync::Arc;

use cel::extractors::This;
use cel::objects::Opaque;
use cel::{Context, ExecutionError, FunctionContext, Value};

use super::{add, fail, opaque};

/// `resource.ParseQuantity`'s message for text that is not a quantity.
const FORMAT_WRONG: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/// A quantity as `coefficient × 10^exponent`, normalised (no trailing zeros in the
/// coefficient) so that equal amounts are equal values.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub(super) struct Quantity {
    coefficient: i128,
    exponent: i32,
}

impl Opaque for Quantity {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.Quantity"
    }
}

impl Quantity {
    fn new(mut coefficient: i128, mut exponent: i32) -> Quantity {
        if coefficient == 0 {
            return Quantity {
                coefficient: 0,
                exponent: 0,
            };
        }
        while coefficient % 10 == 0 {
            coefficient /= 10;
            exponent += 1;
        }
        Quantity { coefficient, exponent }
    }

    /// `text` as `resource.ParseQuantity` reads it.
    pub(super) fn parse(text: &str) -> Result<Quantity, &'static str> {
        let split = text
            .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '+' | '-')))
            .unwrap_or(text.len());
        let (number, suffix) = text.split_at(split);
        let (negative, digits) = match number.as_bytes().first() {
            Some(b'-') => (true, &number[1..]),
            Some(b'+') => (false, &number[1..]),
            _ => (false, number),
        };
        if digits.is_empty() || digits.contains(['+', '-']) || digits.matches('.').count() > 1 || digits == "." {
            return Err(FORMAT_WRONG);
        }
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        let mut coefficient: i128 = 0;
        for d in whole.bytes().chain(fraction.bytes()) {
            coefficient = coefficient
                .checked_mul(10)
                .and_then(|c| c.checked_add(i128::from(d - b'0')))
                .ok_or("unable to parse numeric part of quantity")?;
        }
        let mut exponent = -(fraction.len() as i32);
        let binary = |power: u32| -> Result<i128, &'static str> {
            coefficient
                .checked_mul(1i128 << (10 * power))
                .ok_or("unable to parse numeric part of quantity")
        };
        match suffix {
            "" => {}
            "n" => exponent -= 9,
            "u" => exponent -= 6,
            "m" => exponent -= 3,
            "k" => exponent += 3,
            "M" => exponent += 6,
            "G" => exponent += 9,
            "T" => exponent += 12,
            "P" => exponent += 15,
            "E" => exponent += 18,
            "Ki" => coefficient = binary(1)?,
            "Mi" => coefficient = binary(2)?,
            "Gi" => coefficient = binary(3)?,
            "Ti" => coefficient = binary(4)?,
            "Pi" => coefficient = binary(5)?,
            "Ei" => coefficient = binary(6)?,
            e if e.starts_with(['e', 'E']) => {
                let power: i32 = e[1..].parse().map_err(|_| "unable to parse quantity's suffix")?;
                exponent = exponent.checked_add(power).ok_or("unable to parse quantity's suffix")?;
            }
            _ if suffix.chars().all(|c| "eEinumkKMGTP+-0123456789".contains(c)) => {
                return Err("unable to parse quantity's suffix");
            }
            _ => return Err(FORMAT_WRONG),
        }
        if negative {
            coefficient = -coefficient;
        }
        Ok(Quantity::new(coefficient, exponent))
    }

    /// Both coefficients at the smaller exponent, when that fits.
    fn aligned(self, other: Quantity) -> Option<(i128, i128, i32)> {
        let exponent = self.exponent.min(other.exponent);
        let scale = |q: Quantity| -> Option<i128> {
            let shift = u32::try_from(q.exponent - exponent).ok()?;
            10i128.checked_pow(shift).and_then(|f| q.coefficient.checked_mul(f))
        };
        Some((scale(self)?, scale(other)?, exponent))
    }

    fn approximate(self) -> f64 {
        self.coefficient as f64 * 10f64.powi(self.exponent)
    }

    fn compare(self, other: Quantity) -> Ordering {
        match self.aligned(other) {
            Some((a, b, _)) => a.cmp(&b),
            None => self.approximate().total_cmp(&other.approximate()),
        }
    }

    fn sum(self, other: Quantity, negate: bool) -> Option<Quantity> {
        let (a, b, exponent) = self.aligned(other)?;
        let b = if negate { b.checked_neg()? } else { b };
        Some(Quantity::new(a.checked_add(b)?, exponent))
    }

    /// The value as an int64, when it is a whole number that fits.
    fn as_int64(self) -> Option<i64> {
        let whole = if self.exponent >= 0 {
            self.coefficient
                .checked_mul(10i128.checked_pow(self.exponent as u32)?)?
        } else {
            // Normalised, a negative exponent means a fraction.
            return None;
        };
        i64::try_from(whole).ok()
    }
}

fn quantity_value(q: Quantity) -> Value {
    Value::Opaque(Arc::new(q))
}

fn this_quantity(ftx: &FunctionContext, v: &Value) -> Result<Quantity, ExecutionError> {
    opaque::<Quantity>(v)
        .copied()
        .ok_or_else(|| fail(ftx, format!("{} applies to a quantity", ftx.name)))
}

/// A quantity or an int (the `add` and `sub` overloads take both).
fn operand(ftx: &FunctionContext, v: &Value) -> Result<Quantity, ExecutionError> {
    match v {
        Value::Int(i) => Ok(Quantity::new(i128::from(*i), 0)),
        other => this_quantity(ftx, other),
    }
}

pub(super) fn register(context: &mut Context<'static, 'static>) {
    add(
        context,
        "quantity",
        |ftx: &FunctionContext, s: Arc<String>| -> Result<Value, ExecutionError> {
            Quantity::parse(&s).map(quantity_value).map_err(|e| fail(ftx, e))
        },
    );
    add(context, "isQuantity", |s: Arc<String>| Quantity::parse(&s).is_ok());
    add(
        context,
        "isInteger",
        |ftx: &FunctionContext, This(v): This<Value>| -> Result<bool, ExecutionError> {
            Ok(this_quantity(ftx, &v)?.as_int64().is_some())
        },
    );
    add(
        context,
        "asInteger",
        |ftx: &FunctionContext, This(v): This<Value>| -> Result<i64, ExecutionError> {
            this_quantity(ftx, &v)?
                .as_int64()
                .ok_or_else(|| fail(ftx, "cannot convert value to integer"))
        },
    );
    add(
        context,
        "asApproximateFloat",
        |ftx: &FunctionContext, This(v): This<Value>| -> Result<f64, ExecutionError> {
            Ok(this_quantity(ftx, &v)?.approximate())
        },
    );
    add(
        context,
        "sign",
        |ftx: &FunctionContext, This(v): This<Value>| -> Result<i64, ExecutionError> {
            Ok(this_quantity(ftx, &v)?.coefficient.signum() as i64)
        },
    );
    for (name, negate) in [("add", false), ("sub", true)] {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(v): This<Value>, other: Value| -> Result<Value, ExecutionError> {
                let sum = this_quantity(ftx, &v)?.sum(operand(ftx, &other)?, negate);
                sum.map(quantity_value).ok_or_else(|| fail(ftx, "quantity overflow"))
            },
        );
    }
    type Test = fn(Ordering) -> Value;
    let comparisons: [(&str, Test); 3] = [
        ("isGreaterThan", |o| Value::Bool(o.is_gt())),
        ("isLessThan", |o| Value::Bool(o.is_lt())),
        ("compareTo", |o| Value::Int(o as i64)),
    ];
    for (name, test) in comparisons {
        add(
            context,
            name,
            move |ftx: &FunctionContext, This(v): This<Value>, other: Value| -> Result<Value, ExecutionError> {
                let order = this_quantity(ftx, &v)?.compare(this_quantity(ftx, &other)?);
                Ok(test(order))
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::Quantity;

    #[test]
    fn parses_as_kubernetes_does() {
        let q = |s: &str| Quantity::parse(s).unwrap();
        assert_eq!(q("1000m"), q("1"));
        assert_eq!(q("1Ki"), q("1024"));
        assert_eq!(q("1.5Gi"), q("1610612736"));
        assert_eq!(q("1e3"), q("1k"));
        assert_eq!(q("-0.5"), q("-500m"));
        assert!(q("500Mi").compare(q("1Gi")).is_lt());
        assert_eq!(q("1.5").as_int64(), None);
        assert_eq!(q("2k").as_int64(), Some(2000));
        assert!(Quantity::parse("1.2.3").is_err());
        assert!(Quantity::parse("lots").is_err());
        assert_eq!(Quantity::parse("5Zi"), Err(super::FORMAT_WRONG));
        assert_eq!(Quantity::parse("5Mb"), Err(super::FORMAT_WRONG));
    }
}
