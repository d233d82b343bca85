//! Declarative validation at run time: field paths and errors as apimachinery prints them, the
//! operation being validated, and the validators the generated `validate_<type>` functions call
//! (validation-gen's `validate` package). Generated code decides which rule applies where and
//! in what order; these functions only check one value and word the error.

pub mod content;
mod field;
pub mod schema;
mod validate;

use std::collections::BTreeMap;

pub use field::{BadValue, ErrorList, ErrorType, FieldError, Path, Stability, go_quote};
pub use validate::*;

/// Whether an object is being created or updated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    /// A create: there is no old object.
    Create,
    /// An update: rules compare with the old object, and unchanged values are not checked again.
    Update,
}

/// The operation being validated (apimachinery's `operation.Operation`): its kind, the
/// subresource written (`status`, or empty), and the options (feature gates) rules depend on.
#[derive(Clone, Debug)]
pub struct Operation {
    /// Create or update.
    pub kind: OpKind,
    /// The subresource path written: `/` for the object itself, `/status`, `/scale`.
    pub subresource: String,
    options: BTreeMap<String, bool>,
    /// Whether an option nobody defined counts as off instead of being an internal error.
    undefined_off: bool,
}

impl Operation {
    /// A create of the object itself.
    pub fn create() -> Self {
        Operation {
            kind: OpKind::Create,
            subresource: "/".into(),
            options: BTreeMap::new(),
            undefined_off: false,
        }
    }

    /// An update of the object itself.
    pub fn update() -> Self {
        Operation {
            kind: OpKind::Update,
            ..Self::create()
        }
    }

    /// The same operation on a subresource (`status`).
    pub fn on_subresource(mut self, name: &str) -> Self {
        self.subresource = if name.is_empty() {
            "/".into()
        } else {
            format!("/{name}")
        };
        self
    }

    /// The same operation with an option (feature gate) defined on or off.
    pub fn with_option(mut self, name: impl Into<String>, on: bool) -> Self {
        self.options.insert(name.into(), on);
        self
    }

    /// The same operation, counting options nobody defined as off (a server that does not know
    /// a gate of a vendored API), instead of reporting them as internal errors as Kubernetes does.
    pub fn undefined_options_off(mut self) -> Self {
        self.undefined_off = true;
        self
    }

    /// Whether this is an update.
    pub fn is_update(&self) -> bool {
        self.kind == OpKind::Update
    }

    /// Whether an option is on; `None` when nobody defined it.
    pub fn option(&self, name: &str) -> Option<bool> {
        self.options
            .get(name)
            .copied()
            .or(if self.undefined_off { Some(false) } else { None })
    }

    /// Whether a value is unchanged by this update, which then is not validated again
    /// (ratcheting: an invalid value stored before a rule existed stays writable).
    pub fn unchanged<T: PartialEq + ?Sized>(&self, new: &T, old: Option<&T>) -> bool {
        self.is_update() && old.is_some_and(|o| o == new)
    }
}

#[cfg(test)]
mod tests;
