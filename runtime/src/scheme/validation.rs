//! The validation table of a [`Scheme`]: per type, the subresources its declarative rules serve
//! and the function that checks an object against them (and the old object, on update), as
//! validation-gen's `RegisterValidations` fills Go's scheme.

use super::{Scheme, type_id_of};
use crate::Object;
use crate::validation::{ErrorList, Operation, no_validation};
use std::any::TypeId;

/// A type's typed validation function: the operation, the object and, on update, the old one.
pub type ValidateFn<T> = fn(&Operation, &T, Option<&T>) -> ErrorList;

type ErasedFn = Box<dyn Fn(&Operation, &dyn Object, Option<&dyn Object>) -> ErrorList + Send + Sync>;

/// One registered validation.
pub(super) struct Registered {
    /// The subresource paths it serves (`/`, `/status`).
    subresources: &'static [&'static str],
    validate: ErasedFn,
}

impl Scheme {
    /// Registers the validation of `T` for the subresource paths it serves (`["/", "/status"]`),
    /// replacing any earlier one (Go's `AddValidationFunc`).
    pub fn add_validation_func<T: Object>(&mut self, subresources: &'static [&'static str], f: ValidateFn<T>) {
        let erased = move |op: &Operation, obj: &dyn Object, old: Option<&dyn Object>| match obj.downcast_ref::<T>() {
            Some(typed) => f(op, typed, old.and_then(|o| o.downcast_ref::<T>())),
            None => ErrorList::new(),
        };
        self.validations.insert(
            TypeId::of::<T>(),
            Registered {
                subresources,
                validate: Box::new(erased),
            },
        );
    }

    /// Whether a validation is registered for `obj`'s type.
    pub fn has_validation(&self, obj: &dyn Object) -> bool {
        self.validations.contains_key(&type_id_of(obj))
    }

    /// Validates `obj` (against `old` on an update) with the function registered for its type:
    /// no errors when none is, an internal error when the operation's subresource is not one the
    /// rules serve (Go's `Scheme.Validate`).
    pub fn validate(&self, op: &Operation, obj: &dyn Object, old: Option<&dyn Object>) -> ErrorList {
        let Some(registered) = self.validations.get(&type_id_of(obj)) else {
            return ErrorList::new();
        };
        if !registered.subresources.contains(&op.subresource.as_str()) {
            return vec![no_validation(obj.type_name(), &op.subresource)];
        }
        (registered.validate)(op, obj, old)
    }
}

impl Scheme {
    /// The subresource paths the validation of `gvk`'s type serves; empty when it has none.
    pub fn validation_subresources(&self, gvk: &crate::GroupVersionKind) -> &'static [&'static str] {
        self.gvk_to_type
            .get(gvk)
            .and_then(|known| self.validations.get(&known.type_id))
            .map_or(&[], |r| r.subresources)
    }

    /// Validates a JSON object of `gvk` (against `old` on an update) as [`Scheme::validate`]
    /// validates the typed object: decoded leniently, since the server decoded it already. No
    /// errors for a kind without validation or without a wire format.
    pub fn validate_value(
        &self,
        op: &Operation,
        gvk: &crate::GroupVersionKind,
        obj: &serde_json::Value,
        old: Option<&serde_json::Value>,
    ) -> ErrorList {
        let Some(known) = self.gvk_to_type.get(gvk) else {
            return ErrorList::new();
        };
        let (Some(_), Some(fns)) = (self.validations.get(&known.type_id), self.serde_fns.get(&known.type_id)) else {
            return ErrorList::new();
        };
        let Ok(new) = (fns.decode)(obj, false) else {
            return ErrorList::new();
        };
        let old = old.and_then(|o| (fns.decode)(o, false).ok());
        self.validate(op, new.object.as_ref(), old.as_ref().map(|d| d.object.as_ref()))
    }
}
