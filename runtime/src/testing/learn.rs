//! What a fill learns from the errors of failed attempts, and the error type that carries it.
//!
//! A `Deserialize` impl tells a deserializer little about what it accepts, but its errors say more:
//! serde's derive names a missing or duplicated field, and k8s-openapi's kinds reject any `apiVersion`
//! or `kind` but their own with `invalid_value`, naming the one string they want. The next attempt
//! uses that to supply the field, drop the duplicate or send the wanted string.

use super::FillOptions;
use serde::de::{self, Expected, Unexpected};
use std::fmt;

/// The options of one fill and what its failed attempts revealed.
pub(super) struct Context {
    pub(super) options: FillOptions,
    /// Fields reported missing; maps that a struct asks for offer them as keys (see `FieldMap`).
    pub(super) missing: Vec<&'static str>,
    /// Fields reported twice, which happens when a struct lists a field and its alias; struct field
    /// lists skip them from then on, so only the alias is sent.
    pub(super) duplicated: Vec<&'static str>,
    /// (struct, field, text): a string field that accepts only `text`, such as Pod's `kind`.
    wanted: Vec<(&'static str, &'static str, String)>,
}

impl Context {
    pub(super) fn new(options: FillOptions) -> Self {
        Self {
            options,
            missing: Vec::new(),
            duplicated: Vec::new(),
            wanted: Vec::new(),
        }
    }

    /// Remembers what a failed attempt revealed about the type's fields.
    pub(super) fn learn(&mut self, err: &Error) {
        match &err.problem {
            Some(Problem::Missing(name)) if !self.missing.contains(name) => self.missing.push(name),
            Some(Problem::Duplicate(name)) if !self.duplicated.contains(name) => self.duplicated.push(name),
            Some(Problem::WrongText {
                expected,
                at: Some((ty, field)),
            }) if self.wanted_text(ty, field).is_none() => {
                self.wanted.push((ty, field, expected.clone()));
            }
            _ => {}
        }
    }

    /// The only text that `field` of the struct named `ty` accepts, if an attempt found one.
    pub(super) fn wanted_text(&self, ty: &str, field: &str) -> Option<&str> {
        self.wanted
            .iter()
            .find(|(t, f, _)| *t == ty && *f == field)
            .map(|(_, _, text)| text.as_str())
    }
}

/// The error of one attempt, keeping what serde's error constructors reveal about the fields.
#[derive(Debug)]
pub(super) struct Error {
    message: String,
    problem: Option<Problem>,
}

/// What an error says about a field, in a form the next attempt can act on.
#[derive(Debug)]
enum Problem {
    Missing(&'static str),
    Duplicate(&'static str),
    /// A string was rejected in favour of `expected`; `at` is the struct and field it was sent for,
    /// filled in by the innermost struct the error passes through.
    WrongText {
        expected: String,
        at: Option<(&'static str, &'static str)>,
    },
}

impl Error {
    /// Records that this error came from the value of `field` in the struct named `ty`, unless a struct
    /// nearer the error has already said so.
    pub(super) fn at_field(mut self, ty: &'static str, field: Option<&'static str>) -> Self {
        if let Some(Problem::WrongText { at: at @ None, .. }) = &mut self.problem {
            *at = field.map(|field| (ty, field));
        }
        self
    }
}

impl de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self {
            message: msg.to_string(),
            problem: None,
        }
    }

    fn invalid_value(unexpected: Unexpected<'_>, expected: &dyn Expected) -> Self {
        let message = format!("invalid value: {unexpected}, expected {expected}");
        // Only a rejected string says which string would do; other rejections (an int out of range)
        // name a type or a range, not a value to send.
        let problem = match unexpected {
            Unexpected::Str(_) => Some(Problem::WrongText {
                expected: expected.to_string(),
                at: None,
            }),
            _ => None,
        };
        Self { message, problem }
    }

    fn missing_field(field: &'static str) -> Self {
        Self {
            message: format!("missing field `{field}`"),
            problem: Some(Problem::Missing(field)),
        }
    }

    fn duplicate_field(field: &'static str) -> Self {
        Self {
            message: format!("duplicate field `{field}`"),
            problem: Some(Problem::Duplicate(field)),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
