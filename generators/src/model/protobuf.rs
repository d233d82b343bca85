//! Which types are protobuf messages and the number of each of their fields: go-to-protobuf's
//! decisions, made once for protobuf-gen and the codec registration.
//!
//! An external package tagged `+k8s:protobuf-gen=package` makes its structs and string enums
//! messages, unless a type says `+protobuf=false`; a type may also opt in with `+protobuf=true`.
//! A field's number is its `+protobuf=<n>` tag, Go's `protobuf:"bytes,<n>,opt"`; a field without
//! one takes the next number after the struct's highest, in declaration order, as go-to-protobuf
//! numbers new fields. (go-to-protobuf then writes the number back into the Go source; we never
//! touch sources, so `zz_generated_protobuf.rs` shows the numbers assigned, and a field that has
//! been published should carry its number.) The TypeMeta a kind flattens in is no field: the
//! envelope carries it.

use std::collections::{BTreeMap, BTreeSet};

use super::tag_names as tag;
use super::{External, Field, Primitive, Shape, Type, TypeId, TypeRef, Universe};
use crate::diag::{Diagnostic, Diagnostics};

use super::tag_values::RESERVED;

/// What a typed client needs to read lists in protobuf: the list kind and its ListMeta field.
#[derive(Clone, Debug)]
pub struct ProtobufClient {
    /// The list kind (`DeploymentList`).
    pub list: String,
    /// The list's ListMeta field (`metadata`).
    pub list_meta: String,
    /// Whether that field is an `Option`.
    pub list_meta_optional: bool,
}

/// k8s-openapi types the runtime gives a protobuf form (`runtime/src/protobuf/{meta,core}.rs`),
/// by path; the well-known ones (`External::ObjectMeta`, ...) are told by their kind.
const EXTERNAL_MESSAGES: &[&str] = &[
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelectorRequirement",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::FieldSelectorRequirement",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::GroupResource",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::Condition",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::ManagedFieldsEntry",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::FieldsV1",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::Status",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::StatusDetails",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::StatusCause",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::DeleteOptions",
    "k8s_openapi::apimachinery::pkg::apis::meta::v1::Preconditions",
    "k8s_openapi::apimachinery::pkg::runtime::RawExtension",
    "k8s_openapi::api::core::v1::PersistentVolumeClaim",
    "k8s_openapi::api::core::v1::PersistentVolumeClaimSpec",
    "k8s_openapi::api::core::v1::PersistentVolumeClaimStatus",
    "k8s_openapi::api::core::v1::PersistentVolumeClaimCondition",
    "k8s_openapi::api::core::v1::VolumeResourceRequirements",
    "k8s_openapi::api::core::v1::TypedLocalObjectReference",
    "k8s_openapi::api::core::v1::TypedObjectReference",
    "k8s_openapi::api::core::v1::ModifyVolumeStatus",
    "runtime::meta::v1::GroupVersionKind",
    "runtime::meta::v1::GroupVersionResource",
];

/// A type's protobuf form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// A struct: its wire fields, in number order.
    Struct(Vec<MessageField>),
    /// A string enum: written as its JSON string.
    StringEnum,
}

/// One numbered field of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageField {
    /// The field's position among the struct's fields.
    pub index: usize,
    /// Its number.
    pub number: u32,
    /// Whether the number was written (`+protobuf=<n>`) rather than assigned.
    pub tagged: bool,
    /// Whether it is a map of lists, whose values go-to-protobuf wraps in a message (a map of a
    /// Go named slice type, `map[string]ExtraValue`).
    pub list_map: bool,
    /// Whether a zero read is unset (`+k8s:zeroIsUnset`: Go holds the field as a value).
    pub zero_is_unset: bool,
}

/// Whether a field type is a map of lists (maybe optional).
fn is_list_map(t: &TypeRef) -> bool {
    matches!(t.strip_option(), TypeRef::Map { value, .. } if matches!(value.as_ref(), TypeRef::Vec(_)))
}

/// Decides every type's protobuf form and reports what cannot be one.
pub fn decide(universe: &mut Universe, diags: &mut Diagnostics) {
    let candidates = candidates(universe, diags);
    let mut decided: BTreeMap<TypeId, Message> = BTreeMap::new();
    for id in &candidates {
        let Some(ty) = universe.get(id) else { continue };
        let message = match &ty.shape {
            Shape::Enum { .. } => Message::StringEnum,
            Shape::Struct { fields, .. } => Message::Struct(numbers(ty, fields, diags)),
        };
        for f in ty.fields().iter().filter(|f| on_wire(f)) {
            if let Err(why) = supported(&f.ty, &candidates, universe) {
                diags.push(
                    Diagnostic::error(
                        &f.ty_loc,
                        format!("field `{}` of `{}` cannot be a protobuf field: {why}", f.name, ty.name),
                    )
                    .label("no protobuf form")
                    .help(format!(
                        "change the type, or leave `{}` out of protobuf with `/// +protobuf=false`",
                        ty.name
                    )),
                );
            }
        }
        decided.insert(id.clone(), message);
    }
    for (id, message) in decided {
        if let Some(ty) = universe
            .packages
            .get_mut(&id.package)
            .and_then(|p| p.types.get_mut(&id.name))
        {
            ty.protobuf = Some(message);
        }
    }
    protobuf_clients(universe);
}

/// Gives the typed client of every kind that is a message, with a list that is one too, its
/// protobuf form.
fn protobuf_clients(universe: &mut Universe) {
    for pkg in universe.packages.values_mut() {
        let mut forms = Vec::new();
        for ty in pkg
            .types
            .values()
            .filter(|t| t.protobuf.is_some() && t.client().is_some())
        {
            let Some(list) = ty.kind.as_ref().and_then(|k| k.list.as_ref()) else {
                continue;
            };
            let Some(list_ty) = pkg.types.get(list).filter(|l| l.protobuf.is_some()) else {
                continue;
            };
            let is_list_meta = |f: &&Field| f.ty.strip_option().is_external(External::ListMeta);
            let Some(meta) = list_ty.fields().iter().find(is_list_meta) else {
                continue;
            };
            let form = ProtobufClient {
                list: list.clone(),
                list_meta: meta.name.clone(),
                list_meta_optional: matches!(meta.ty, TypeRef::Option(_)),
            };
            forms.push((ty.name.clone(), form));
        }
        for (name, form) in forms {
            let client = pkg
                .types
                .get_mut(&name)
                .and_then(|t| t.kind.as_mut())
                .and_then(|k| k.resource.as_mut());
            if let Some(client) = client.and_then(|r| r.client.as_mut()) {
                client.protobuf = Some(form);
            }
        }
    }
}

/// The types the tags make messages. Internal packages never go on the wire; a type protobuf
/// cannot describe is left out unless it asked to be in.
fn candidates(universe: &Universe, diags: &mut Diagnostics) -> BTreeSet<TypeId> {
    let mut out = BTreeSet::new();
    for pkg in universe.packages.values() {
        if pkg.is_internal() {
            if pkg.attrs.protobuf {
                diags.push(
                    Diagnostic::error(
                        &pkg.tag_loc(tag::PROTOBUF_GEN),
                        "an internal package cannot be protobuf: its types never go on the wire",
                    )
                    .label("internal version")
                    .help("tag the group's external versions instead"),
                );
            }
            continue;
        }
        for ty in pkg.types.values() {
            let wanted = ty.attrs.protobuf.unwrap_or(pkg.attrs.protobuf);
            if !wanted {
                continue;
            }
            let shape_ok = match &ty.shape {
                Shape::Struct { .. } => true,
                Shape::Enum { .. } => ty.string_enum().is_some(),
            };
            if shape_ok && !ty.generic {
                out.insert(pkg.id(&ty.name));
            } else if ty.attrs.protobuf == Some(true) {
                diags.push(
                    Diagnostic::error(
                        &ty.tags.loc(tag::PROTOBUF, &ty.loc),
                        format!("`{}` cannot be a protobuf message", ty.name),
                    )
                    .label("asked for here")
                    .help("messages are concrete structs, or enums of unit variants written as strings"),
                );
            }
        }
    }
    out
}

/// Whether a field is written on the wire as a field of its own: not skipped, and not the
/// TypeMeta the envelope carries.
pub fn on_wire(f: &Field) -> bool {
    let envelope_carries = f.flatten && f.ty.strip_option().is_external(External::TypeMeta);
    !(f.skip || envelope_carries)
}

/// The numbers of a struct's wire fields: tagged ones as written, the rest after the highest,
/// in declaration order. Duplicates and numbers on fields that are not on the wire are errors.
fn numbers(ty: &Type, fields: &[Field], diags: &mut Diagnostics) -> Vec<MessageField> {
    let mut taken: BTreeMap<u32, &Field> = BTreeMap::new();
    for f in fields {
        let Some(n) = f.attrs.protobuf else { continue };
        let loc = f.tags.loc(tag::PROTOBUF, &f.loc);
        if !on_wire(f) {
            diags.push(
                Diagnostic::error(
                    &loc,
                    format!("field `{}` is not on the wire, so it has no number", f.name),
                )
                .label("number of a field protobuf leaves out")
                .help("remove the tag"),
            );
        } else if let Some(first) = taken.get(&n) {
            diags.push(
                Diagnostic::error(
                    &loc,
                    format!(
                        "fields `{}` and `{}` of `{}` both have number {n}",
                        first.name, f.name, ty.name
                    ),
                )
                .label("number taken")
                .help(format!("give `{}` an unused number", f.name)),
            );
        } else {
            taken.insert(n, f);
        }
    }
    let mut next = taken.keys().next_back().copied().unwrap_or(0);
    let mut out = Vec::new();
    for (index, f) in fields.iter().enumerate() {
        if !on_wire(f) {
            continue;
        }
        let (number, tagged) = match f.attrs.protobuf {
            Some(n) => (n, true),
            None => {
                next += 1;
                if RESERVED.contains(&next) {
                    next = RESERVED.end() + 1;
                }
                (next, false)
            }
        };
        out.push(MessageField {
            index,
            number,
            tagged,
            list_map: is_list_map(&f.ty),
            zero_is_unset: f.attrs.zero_is_unset,
        });
    }
    out.sort_by_key(|f| f.number);
    out.dedup_by_key(|f| f.number);
    out
}

/// Whether a field type has a protobuf form, or why not.
fn supported(t: &TypeRef, messages: &BTreeSet<TypeId>, universe: &Universe) -> Result<(), String> {
    match t {
        TypeRef::Primitive(p) => match p {
            Primitive::Bool | Primitive::I32 | Primitive::I64 | Primitive::U32 | Primitive::U64 | Primitive::F64 => {
                Ok(())
            }
            other => Err(format!(
                "`{}` has no protobuf scalar (use bool, i32, i64, u32, u64 or f64)",
                other.as_str()
            )),
        },
        TypeRef::String => Ok(()),
        TypeRef::Option(inner) | TypeRef::Box(inner) => supported(inner, messages, universe),
        TypeRef::Vec(inner) => match inner.as_ref() {
            TypeRef::Primitive(Primitive::U8) => Err("bytes are `ByteString`, not `Vec<u8>`".into()),
            TypeRef::Vec(_) | TypeRef::Map { .. } | TypeRef::Option(_) => Err(format!(
                "protobuf has no list of `{inner}` (wrap the element in a struct)"
            )),
            _ => supported(inner, messages, universe),
        },
        TypeRef::Map { key, value, .. } => {
            if !matches!(
                key.as_ref(),
                TypeRef::String
                    | TypeRef::Primitive(
                        Primitive::I32 | Primitive::I64 | Primitive::U32 | Primitive::U64 | Primitive::Bool
                    )
            ) {
                return Err(format!("a protobuf map key is a string or an integer, not `{key}`"));
            }
            match value.as_ref() {
                // Go's named slice types (`map[string]ExtraValue`): a message of repeated items.
                TypeRef::Vec(items)
                    if !matches!(
                        items.as_ref(),
                        TypeRef::Vec(_) | TypeRef::Map { .. } | TypeRef::Option(_)
                    ) =>
                {
                    supported(items, messages, universe)
                }
                TypeRef::Vec(_) | TypeRef::Map { .. } | TypeRef::Option(_) | TypeRef::Box(_) => {
                    Err(format!("protobuf has no map of `{value}` (wrap the value in a struct)"))
                }
                _ => supported(value, messages, universe),
            }
        }
        TypeRef::Named(id) if messages.contains(id) => Ok(()),
        TypeRef::Named(id) => Err(match universe.get(id) {
            Some(_) => format!(
                "`{}` is not a protobuf message (tag its package `+k8s:protobuf-gen=package`, or the type `+protobuf=true`)",
                id.name
            ),
            None => format!("`{}` is not known", id.name),
        }),
        TypeRef::External(kind, path) => match kind {
            External::TypeMeta => Err("a TypeMeta is carried by the envelope, not a field".into()),
            External::Time
            | External::MicroTime
            | External::ObjectMeta
            | External::ListMeta
            | External::IntOrString
            | External::Quantity
            | External::ByteString
            | External::Json => Ok(()),
            External::Other if EXTERNAL_MESSAGES.contains(&path.as_str()) => Ok(()),
            External::Other => Err(format!("the runtime has no protobuf form of `{path}`")),
        },
        TypeRef::Unsupported(written, _) => Err(format!("`{written}` has no protobuf form")),
        // Already reported where the model was built.
        TypeRef::Unresolved(_) => Ok(()),
    }
}
