//! apimachinery's `field` package: the path of a value in an object (`spec.containers[0].image`)
//! and the field errors validation returns, printed exactly as Kubernetes prints them.

use std::fmt;

/// Where a value is in an object. Paths are built on the stack as validation descends (each
/// level borrows its parent), and rendered to text only when an error is reported.
#[derive(Clone, Copy, Debug)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    elem: Elem<'a>,
}

#[derive(Clone, Copy, Debug)]
enum Elem<'a> {
    /// The object itself: renders as nothing.
    Root,
    /// A field by JSON name.
    Field(&'a str),
    /// A list item.
    Index(usize),
    /// A map entry.
    Key(&'a str),
}

impl Path<'static> {
    /// The object itself: its fields render without a leading dot (`spec.replicas`).
    pub const ROOT: Path<'static> = Path {
        parent: None,
        elem: Elem::Root,
    };

    /// A path starting at a named field (Go's `field.NewPath("spec")`).
    pub fn new(name: &'static str) -> Path<'static> {
        Path {
            parent: None,
            elem: Elem::Field(name),
        }
    }
}

impl<'a> Path<'a> {
    /// A field of the value here.
    pub fn child(&'a self, name: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            elem: Elem::Field(name),
        }
    }

    /// An item of the list here.
    pub fn index(&'a self, i: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            elem: Elem::Index(i),
        }
    }

    /// An entry of the map here.
    pub fn key(&'a self, k: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            elem: Elem::Key(k),
        }
    }
}

impl Path<'_> {
    /// Whether this is the object itself, with nothing below it.
    fn is_root(&self) -> bool {
        self.parent.is_none() && matches!(self.elem, Elem::Root)
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parent = self.parent.filter(|p| !p.is_root());
        if let Some(p) = parent {
            p.write(f)?;
        }
        match self.elem {
            Elem::Root => Ok(()),
            Elem::Field(name) if parent.is_some() => write!(f, ".{name}"),
            Elem::Field(name) => f.write_str(name),
            Elem::Index(i) => write!(f, "[{i}]"),
            Elem::Key(k) => write!(f, "[{k}]"),
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_root() {
            // Go's nil `*field.Path`: an error about the object itself.
            return f.write_str("<nil>");
        }
        self.write(f)
    }
}

/// apimachinery's `field.ErrorType`: what kind of problem a field has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ErrorType {
    /// The value refers to something that does not exist.
    NotFound,
    /// A required value is missing.
    Required,
    /// The value is a duplicate of another in a set.
    Duplicate,
    /// The value is malformed or out of range.
    Invalid,
    /// The value is not one of a fixed set.
    NotSupported,
    /// The value may not be set (here, now, or by this user).
    Forbidden,
    /// The value is longer than allowed.
    TooLong,
    /// There are more items than allowed.
    TooMany,
    /// The value is shorter than allowed.
    TooShort,
    /// There are fewer items than allowed.
    TooFew,
    /// The server failed.
    Internal,
    /// The value has the wrong type.
    TypeInvalid,
}

impl ErrorType {
    /// The text Kubernetes prints (`Invalid value`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorType::NotFound => "Not found",
            ErrorType::Required => "Required value",
            ErrorType::Duplicate => "Duplicate value",
            ErrorType::Invalid | ErrorType::TypeInvalid => "Invalid value",
            ErrorType::NotSupported => "Unsupported value",
            ErrorType::Forbidden => "Forbidden",
            ErrorType::TooLong => "Too long",
            ErrorType::TooMany => "Too many",
            ErrorType::TooShort => "Too short",
            ErrorType::TooFew => "Too few",
            ErrorType::Internal => "Internal error",
        }
    }

    /// The cause type of a Status (`FieldValueInvalid`).
    pub fn reason(self) -> &'static str {
        match self {
            ErrorType::NotFound => "FieldValueNotFound",
            ErrorType::Required => "FieldValueRequired",
            ErrorType::Duplicate => "FieldValueDuplicate",
            ErrorType::Invalid => "FieldValueInvalid",
            ErrorType::NotSupported => "FieldValueNotSupported",
            ErrorType::Forbidden => "FieldValueForbidden",
            ErrorType::TooLong => "FieldValueTooLong",
            ErrorType::TooMany => "FieldValueTooMany",
            ErrorType::TooShort => "FieldValueTooShort",
            ErrorType::TooFew => "FieldValueTooFew",
            ErrorType::Internal => "InternalError",
            ErrorType::TypeInvalid => "FieldValueTypeInvalid",
        }
    }
}

/// The offending value, as an error prints it.
#[derive(Clone, Debug, PartialEq)]
pub enum BadValue {
    /// Not printed (Go's `field.OmitValueType`).
    Omitted,
    /// `null`.
    Null,
    /// An integer, printed bare.
    Int(i64),
    /// A float, printed bare.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// A string, printed quoted.
    String(String),
    /// Anything else, already printed.
    Other(String),
}

impl From<i64> for BadValue {
    fn from(v: i64) -> Self {
        BadValue::Int(v)
    }
}

impl From<&str> for BadValue {
    fn from(v: &str) -> Self {
        BadValue::String(v.to_string())
    }
}

impl From<String> for BadValue {
    fn from(v: String) -> Self {
        BadValue::String(v)
    }
}

impl From<bool> for BadValue {
    fn from(v: bool) -> Self {
        BadValue::Bool(v)
    }
}

/// A stability level of the rule that found an error (`+k8s:alpha`, `+k8s:beta`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stability {
    /// An alpha rule.
    Alpha,
    /// A beta rule.
    Beta,
}

/// One field error (apimachinery's `field.Error`).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    /// What kind of problem.
    pub kind: ErrorType,
    /// Where (`spec.replicas`).
    pub field: String,
    /// The value found.
    pub bad_value: BadValue,
    /// Why it is wrong (`must be greater than or equal to 0`).
    pub detail: String,
    /// Which rule found it (`minimum`, `format=k8s-short-name`), for tests and metrics.
    pub origin: Option<String>,
    /// The stability level of that rule, when it has one.
    pub stability: Option<Stability>,
}

impl FieldError {
    fn new(kind: ErrorType, path: &Path<'_>, bad_value: BadValue, detail: impl Into<String>) -> Self {
        FieldError {
            kind,
            field: path.to_string(),
            bad_value,
            detail: detail.into(),
            origin: None,
            stability: None,
        }
    }

    /// `Required value`.
    pub fn required(path: &Path<'_>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Required, path, BadValue::Omitted, detail)
    }

    /// `Forbidden`.
    pub fn forbidden(path: &Path<'_>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Forbidden, path, BadValue::Omitted, detail)
    }

    /// `Invalid value: <value>`.
    pub fn invalid(path: &Path<'_>, value: impl Into<BadValue>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Invalid, path, value.into(), detail)
    }

    /// `Not found: <value>`: the value names something that does not exist.
    pub fn not_found(path: &Path<'_>, value: impl Into<BadValue>) -> Self {
        Self::new(ErrorType::NotFound, path, value.into(), "")
    }

    /// `Duplicate value: <value>`.
    pub fn duplicate(path: &Path<'_>, value: impl Into<BadValue>) -> Self {
        Self::new(ErrorType::Duplicate, path, value.into(), "")
    }

    /// `Unsupported value: <value>: supported values: "a", "b"`.
    pub fn not_supported<S: AsRef<str>>(path: &Path<'_>, value: impl Into<BadValue>, valid: &[S]) -> Self {
        let detail = if valid.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = valid.iter().map(|v| go_quote(v.as_ref())).collect();
            format!("supported values: {}", quoted.join(", "))
        };
        Self::new(ErrorType::NotSupported, path, value.into(), detail)
    }

    /// `Too long: may not be more than <max> bytes`.
    pub fn too_long(path: &Path<'_>, max: u64) -> Self {
        let detail = format!("may not be more than {max} {}", plural(max, "byte"));
        Self::new(ErrorType::TooLong, path, BadValue::Omitted, detail)
    }

    /// `Too long: may not be more than <max> characters`.
    pub fn too_long_characters(path: &Path<'_>, max: u64) -> Self {
        let detail = format!("may not be more than {max} {}", plural(max, "character"));
        Self::new(ErrorType::TooLong, path, BadValue::Omitted, detail)
    }

    /// `Too short: must be at least <min> characters`.
    pub fn too_short(path: &Path<'_>, min: u64) -> Self {
        let detail = format!("must be at least {min} {}", plural(min, "character"));
        Self::new(ErrorType::TooShort, path, BadValue::Omitted, detail)
    }

    /// `Too many: <n>: must have at most <max> items`.
    pub fn too_many(path: &Path<'_>, actual: usize, max: u64) -> Self {
        let detail = format!("must have at most {max} {}", plural(max, "item"));
        Self::new(ErrorType::TooMany, path, BadValue::Int(actual as i64), detail)
    }

    /// `Too few: <n>: must have at least <min> items`.
    pub fn too_few(path: &Path<'_>, actual: usize, min: u64) -> Self {
        let detail = format!("must have at least {min} {}", plural(min, "item"));
        Self::new(ErrorType::TooFew, path, BadValue::Int(actual as i64), detail)
    }

    /// `Internal error`.
    pub fn internal(path: &Path<'_>, detail: impl Into<String>) -> Self {
        Self::new(ErrorType::Internal, path, BadValue::Omitted, detail)
    }

    /// The same error, found by a rule at a stability level (`+k8s:alpha`, `+k8s:beta`).
    pub fn at_level(mut self, level: Stability) -> Self {
        self.stability = Some(level);
        self
    }

    /// The same error, saying which rule found it.
    pub fn with_origin(mut self, origin: impl Into<String>) -> Self {
        self.origin = Some(origin.into());
        self
    }

    /// What follows the field in the message (Go's `ErrorBody`): `Invalid value: -5: must be ...`.
    pub fn body(&self) -> String {
        let omit = matches!(
            self.kind,
            ErrorType::Required | ErrorType::Forbidden | ErrorType::TooLong | ErrorType::TooShort | ErrorType::Internal
        ) || self.bad_value == BadValue::Omitted;
        let mut s = if omit {
            self.kind.as_str().to_string()
        } else {
            let value = match &self.bad_value {
                BadValue::Omitted => String::new(),
                BadValue::Null => "null".into(),
                BadValue::Int(i) => i.to_string(),
                BadValue::Float(x) => x.to_string(),
                BadValue::Bool(b) => b.to_string(),
                BadValue::String(s) => go_quote(s),
                BadValue::Other(s) => s.clone(),
            };
            format!("{}: {value}", self.kind.as_str())
        };
        if !self.detail.is_empty() {
            s.push_str(": ");
            s.push_str(&self.detail);
        }
        s
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.body())
    }
}

/// `items`, or `item` for one.
fn plural(n: u64, unit: &str) -> String {
    if n == 1 { unit.to_string() } else { format!("{unit}s") }
}

/// The errors of one validation, in the order found.
pub type ErrorList = Vec<FieldError>;

/// A string as Go's `%q` prints it: double quotes, `\"` and `\\`, control characters escaped.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
