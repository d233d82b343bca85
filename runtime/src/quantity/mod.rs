//! Quantities as Kubernetes reads and writes them: `canonical` is Go's `ParseQuantity` followed
//! by `Quantity.String()`, so `0.75` is stored and answered as `750m`, `1024Mi` as `1Gi`; the
//! [`deserialize`] helper applies it to every Quantity of a field as it is read, as Go's
//! `UnmarshalJSON` does, and the protobuf codec applies it to `Quantity{string = 1}`.
//!
//! ```
//! use kube_apimachinery::quantity::canonical;
//! assert_eq!(canonical("0.75").unwrap(), "750m");
//! assert_eq!(canonical("1024Mi").unwrap(), "1Gi");
//! assert_eq!(canonical("1500").unwrap(), "1500");
//! assert!(canonical("1x").is_err());
//! ```
//!
//! The arithmetic is exact on decimal digit strings (no floating point, no size limit): a value
//! is `digits × 10^exponent`. Go keeps a binary-suffixed value at most `2^63 - 1`, rounds every
//! value up to a multiple of `1n`, and answers a value written in its canonical form with the text
//! it was given (`+5` stays `+5`, `1E3` stays `1E3`); this does the same.

mod serde;
#[cfg(test)]
mod tests;

pub use self::serde::{Quantities, deserialize};

/// Why a text is not a quantity, worded as Go's `resource` package words it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuantityError {
    /// The text does not have a quantity's shape.
    #[error("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")]
    Format,
    /// The suffix is none of Kubernetes' (`Ki`, `m`, `e3`, ...).
    #[error("unable to parse quantity's suffix")]
    Suffix,
}

/// How a quantity is written: Go's `resource.Format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    /// `12e6`.
    DecimalExponent,
    /// `5Gi`.
    BinarySi,
    /// `5G`, `500m`.
    DecimalSi,
}

/// The largest value a binary-suffixed quantity keeps (Go's `maxAllowed`).
const MAX_INT64: &str = "9223372036854775807";

/// The text of `text` in Kubernetes' canonical form.
pub fn canonical(text: &str) -> Result<String, QuantityError> {
    if text.is_empty() {
        return Err(QuantityError::Format);
    }
    if text == "0" {
        return Ok(text.to_string());
    }
    let parts = split(text)?;
    let (base, exponent, format) = suffix(parts.suffix).ok_or(QuantityError::Suffix)?;
    if kept_as_written(&parts, base, exponent) {
        return Ok(text.to_string());
    }
    let mut value = Decimal::new(&format!("{}{}", parts.num, parts.denom), -(parts.denom.len() as i64));
    if base == 10 {
        value.exponent += exponent;
    } else {
        value.digits = multiply(&value.digits, 1u64 << exponent);
    }
    value.round_up_to_nano();
    let mut format = format;
    if format == Format::BinarySi {
        if value.greater_than_integer(MAX_INT64) {
            value = Decimal::new(MAX_INT64, 0);
        }
        if value.less_than_one() {
            format = Format::DecimalSi;
        }
    }
    Ok(value.render(parts.positive, format))
}

/// A quantity's text cut as Go's `parseQuantityString` cuts it.
struct Parts<'a> {
    positive: bool,
    /// The integer digits without leading zeros (`"0"` when there are none).
    num: &'a str,
    /// The digits after the point.
    denom: &'a str,
    suffix: &'a str,
}

fn split(text: &str) -> Result<Parts<'_>, QuantityError> {
    let bytes = text.as_bytes();
    let (positive, mut pos) = match bytes[0] {
        b'-' => (false, 1),
        b'+' => (true, 1),
        _ => (true, 0),
    };
    while pos < bytes.len() && bytes[pos] == b'0' {
        pos += 1;
    }
    let zero = Parts {
        positive,
        num: "0",
        denom: "",
        suffix: "",
    };
    if pos == bytes.len() {
        return Ok(zero);
    }
    let digits = |from: usize| from + bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
    let num_end = digits(pos);
    let num = if num_end == pos { "0" } else { &text[pos..num_end] };
    pos = num_end;
    let mut denom = "";
    if pos < bytes.len() && bytes[pos] == b'.' {
        let end = digits(pos + 1);
        denom = &text[pos + 1..end];
        pos = end;
    }
    let suffix_start = pos;
    while pos < bytes.len() && b"eEinumkKMGTP".contains(&bytes[pos]) {
        pos += 1;
    }
    if pos < bytes.len() && matches!(bytes[pos], b'-' | b'+') {
        pos += 1;
    }
    if digits(pos) != bytes.len() {
        return Err(QuantityError::Format);
    }
    Ok(Parts {
        positive,
        num,
        denom,
        suffix: &text[suffix_start..],
    })
}

/// The base, exponent and format a suffix stands for (Go's `suffixer.interpret`).
fn suffix(s: &str) -> Option<(u32, i64, Format)> {
    let decimal = match s {
        "n" => Some(-9),
        "u" => Some(-6),
        "m" => Some(-3),
        "" => Some(0),
        "k" => Some(3),
        "M" => Some(6),
        "G" => Some(9),
        "T" => Some(12),
        "P" => Some(15),
        "E" => Some(18),
        _ => None,
    };
    if let Some(e) = decimal {
        return Some((10, e, Format::DecimalSi));
    }
    let binary = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"].iter().position(|b| *b == s);
    if let Some(i) = binary {
        return Some((2, 10 * (i as i64 + 1), Format::BinarySi));
    }
    if s.len() > 1 && s.starts_with(['e', 'E']) {
        // Go parses the exponent as an int64 and keeps it as an int32.
        let e: i64 = s[1..].parse().ok()?;
        return Some((10, i64::from(e as i32), Format::DecimalExponent));
    }
    None
}

/// Whether Go's fast path keeps the text as written: a value of at most 18 digits, no finer than
/// `1n`, already in canonical form.
fn kept_as_written(parts: &Parts<'_>, base: u32, exponent: i64) -> bool {
    let shifted = format!("{}{}", parts.num, parts.denom);
    if base == 2 {
        let precision = 15 - parts.num.len() as i64 - (exponent as f32 * 3.0 / 10.0) as i64 - 1;
        if !parts.denom.is_empty() || precision < 0 {
            return false;
        }
        let Ok(value) = shifted.parse::<i64>() else {
            return false;
        };
        return value.checked_mul(1i64 << exponent).is_some() && exponent % 10 == 0 && value & 7 != 0;
    }
    let scale = exponent - parts.denom.len() as i64;
    18 - (shifted.len() as i64) >= 0
        && scale >= -9
        && scale % 3 == 0
        && !shifted.ends_with("000")
        && !shifted.starts_with('0')
}

/// A non-negative value `digits × 10^exponent`; `digits` has no leading zeros (`"0"` for zero).
struct Decimal {
    digits: String,
    exponent: i64,
}

impl Decimal {
    fn new(digits: &str, exponent: i64) -> Decimal {
        let trimmed = digits.trim_start_matches('0');
        let digits = if trimmed.is_empty() { "0" } else { trimmed };
        Decimal {
            digits: digits.to_string(),
            exponent,
        }
    }

    fn is_zero(&self) -> bool {
        self.digits == "0"
    }

    /// Go rounds a value finer than `1n` up to the next `1n`, "so that who asks for some resource
    /// gets some".
    fn round_up_to_nano(&mut self) {
        if self.is_zero() || self.exponent >= -9 {
            return;
        }
        let cut = (-9 - self.exponent) as usize;
        let keep = self.digits.len().saturating_sub(cut);
        let dropped_nonzero = self.digits[keep..].bytes().any(|b| b != b'0');
        let kept = if keep == 0 {
            "0".to_string()
        } else {
            self.digits[..keep].to_string()
        };
        let kept = if dropped_nonzero { increment(&kept) } else { kept };
        *self = Decimal::new(&kept, -9);
    }

    /// The integer part and whether a fraction is left.
    fn integer_part(&self) -> (String, bool) {
        if self.exponent >= 0 {
            return (format!("{}{}", self.digits, "0".repeat(self.exponent as usize)), false);
        }
        let frac = (-self.exponent) as usize;
        let keep = self.digits.len().saturating_sub(frac);
        let int = if keep == 0 { "0" } else { &self.digits[..keep] };
        (int.to_string(), self.digits[keep..].bytes().any(|b| b != b'0'))
    }

    fn greater_than_integer(&self, bound: &str) -> bool {
        if self.exponent > 0 && self.digits.len() as i64 + self.exponent > bound.len() as i64 {
            return true;
        }
        let (int, fraction) = self.integer_part();
        match int.len().cmp(&bound.len()).then_with(|| int.as_str().cmp(bound)) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Equal => fraction,
            std::cmp::Ordering::Less => false,
        }
    }

    fn less_than_one(&self) -> bool {
        !self.is_zero() && self.integer_part().0 == "0"
    }

    /// Go's `CanonicalizeBytes`: the smallest binary suffix for a whole binary value of at least
    /// 1024, else the largest exponent that is a multiple of three with a whole mantissa.
    fn render(mut self, positive: bool, format: Format) -> String {
        if self.is_zero() {
            return "0".into();
        }
        let sign = if positive { "" } else { "-" };
        if format == Format::BinarySi {
            let (int, fraction) = self.integer_part();
            // A binary value is at most 2^63 - 1, so its integer part fits.
            let whole = int.parse::<u64>().ok().filter(|_| !fraction);
            if let Some(mut n) = whole.filter(|n| *n >= 1024) {
                let mut power = 0;
                while n % 1024 == 0 && power < 6 {
                    n /= 1024;
                    power += 1;
                }
                let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][power];
                return format!("{sign}{n}{suffix}");
            }
        }
        let zeros = self.digits.len() - self.digits.trim_end_matches('0').len();
        self.digits.truncate(self.digits.len() - zeros);
        self.exponent += zeros as i64;
        while self.exponent % 3 != 0 {
            self.digits.push('0');
            self.exponent -= 1;
        }
        let suffix = match format {
            Format::DecimalExponent if self.exponent == 0 => String::new(),
            Format::DecimalExponent => format!("e{}", self.exponent),
            _ => {
                // Past `E`, Go has no suffix and would print the mantissa alone, a different
                // value; the mantissa takes the extra zeros instead.
                while self.exponent > 18 {
                    self.digits.push_str("000");
                    self.exponent -= 3;
                }
                let i = ((self.exponent + 9) / 3) as usize;
                ["n", "u", "m", "", "k", "M", "G", "T", "P", "E"][i].to_string()
            }
        };
        format!("{sign}{}{suffix}", self.digits)
    }
}

/// `digits + 1`.
fn increment(digits: &str) -> String {
    let mut out: Vec<u8> = digits.bytes().collect();
    for b in out.iter_mut().rev() {
        if *b == b'9' {
            *b = b'0';
        } else {
            *b += 1;
            return String::from_utf8(out).unwrap_or_default();
        }
    }
    format!("1{}", String::from_utf8(out).unwrap_or_default())
}

/// `digits × factor`.
fn multiply(digits: &str, factor: u64) -> String {
    let mut out = Vec::with_capacity(digits.len() + 20);
    let mut carry: u128 = 0;
    for b in digits.bytes().rev() {
        let v = u128::from(b - b'0') * u128::from(factor) + carry;
        out.push(b'0' + (v % 10) as u8);
        carry = v / 10;
    }
    while carry > 0 {
        out.push(b'0' + (carry % 10) as u8);
        carry /= 10;
    }
    out.reverse();
    let text = String::from_utf8(out).unwrap_or_default();
    Decimal::new(&text, 0).digits
}
