//! What the validation generator needs to know about a field and a value's type: the rules that
//! apply (the field's own, its type alias's, its kube-openapi value tags), whether a value counts
//! as set, and the list metadata that matches old items to new ones.

use serde_json::{Map, Value};

use crate::model::declarative::{ListKind, Rule, Validation};
use crate::model::{Field, TypeRef, Universe};

/// The validation-gen rules of a field: those of the type alias it names (a Go named type's
/// tags), then its own.
pub fn rules(universe: &Universe, f: &Field) -> Vec<Validation> {
    let mut out: Vec<Validation> = f
        .alias
        .as_ref()
        .and_then(|a| universe.alias(a))
        .map(|a| a.attrs.declarative.clone())
        .unwrap_or_default();
    out.extend(f.attrs.declarative.iter().cloned());
    out
}

/// The kube-openapi value validations of a field (`+k8s:validation:minimum=0`), which a CRD's
/// schema states and the server checks the same way.
pub fn schema(f: &Field) -> Map<String, Value> {
    let mut out = f.attrs.validations.clone();
    out.remove("x-kubernetes-validations");
    out
}

/// Whether a field has any rule of its own; in a custom resource's package (`crd`), a list type
/// counts, as its schema states one.
pub fn has_rules(universe: &Universe, f: &Field, crd: bool) -> bool {
    // `rules` and `schema`, asked without building them: this runs for every field of the universe.
    let alias_rules = || {
        f.alias
            .as_ref()
            .and_then(|a| universe.alias(a))
            .is_some_and(|a| !a.attrs.declarative.is_empty())
    };
    let schema = || f.attrs.validations.keys().any(|k| k != "x-kubernetes-validations");
    !f.skip && (!f.attrs.declarative.is_empty() || alias_rules() || schema() || (crd && schema_list(f).is_some()))
}

/// A custom resource's list type, as its schema states it: `set`, or `map` with its keys.
pub fn schema_list(f: &Field) -> Option<(ListKind, &[String])> {
    use crate::model::attrs::ListType;
    match f.attrs.list_type? {
        ListType::Set => Some((ListKind::Set, &[])),
        ListType::Map if !f.attrs.list_map_keys.is_empty() => Some((ListKind::Map, &f.attrs.list_map_keys)),
        _ => None,
    }
}

/// Whether a field says its type's own validation is not run (`+k8s:opaqueType`).
pub fn opaque(f: &Field) -> bool {
    f.attrs.declarative.iter().any(|v| v.inner().rule == Rule::OpaqueType)
}

/// How a list's items are matched to the old list's (`+k8s:listType`, `+k8s:unique`,
/// `+k8s:listMapKey`): by key fields, by equality, or not at all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListMeta {
    /// set or map; `None` for atomic or unstated.
    pub kind: Option<ListKind>,
    /// The keys of a map list, JSON names.
    pub keys: Vec<String>,
    /// Whether uniqueness is checked by generated code (not `+k8s:customUnique`, not atomic).
    pub check_unique: bool,
}

impl ListMeta {
    /// The list metadata the rules state.
    pub fn of(rules: &[Validation]) -> ListMeta {
        let mut meta = ListMeta::default();
        let mut custom = false;
        for v in rules {
            match &v.inner().rule {
                Rule::ListType(k) | Rule::Unique(k) if *k != ListKind::Atomic => meta.kind = Some(*k),
                Rule::ListMapKey(k) => meta.keys.push(k.clone()),
                Rule::CustomUnique => custom = true,
                _ => {}
            }
        }
        meta.check_unique = meta.kind.is_some() && !custom;
        meta
    }
}

/// Whether a value of this type counts as set can be asked of the runtime's `Presence`; other
/// types (structs, enums, external types) are always set, as a Go struct value is.
pub fn has_presence(ty: &TypeRef) -> bool {
    matches!(
        ty,
        TypeRef::Option(_) | TypeRef::String | TypeRef::Vec(_) | TypeRef::Map { .. } | TypeRef::Primitive(_)
    )
}

/// Whether the type is an integer the runtime compares as `i64`.
pub fn is_integer(ty: &TypeRef) -> bool {
    matches!(ty, TypeRef::Primitive(p) if p.is_integer())
}

/// Whether the type is a float.
pub fn is_float(ty: &TypeRef) -> bool {
    matches!(ty, TypeRef::Primitive(p) if p.is_float())
}
