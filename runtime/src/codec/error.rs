//! The codec's errors: [`DecodeError`] for reading manifests and [`EncodeError`] for writing them.
//!
//! Every message names where the problem is: the line and column for malformed input, the JSON
//! path for a field that does not fit its type, and, in streams, the document (by number and first
//! line) and the `List` item.

use super::Format;
use crate::{ConversionError, GroupVersion, GroupVersionKind};
use thiserror::Error;

/// An error from decoding JSON or YAML into an object.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The input is not well-formed JSON or YAML (or not UTF-8).
    #[error("malformed {format} at line {line}, column {column}: {message}")]
    Syntax {
        /// The format the input was read as.
        format: Format,
        /// The line of the problem, counted from 1 over the whole input.
        line: usize,
        /// The column of the problem, counted from 1.
        column: usize,
        /// The parser's description.
        message: String,
    },
    /// The input holds no document, or only empty ones.
    #[error("no object found: the input is empty")]
    Empty,
    /// `decode` was given several documents.
    #[error("expected one object, found {count} documents (a stream is read with decode_stream)")]
    MultipleDocuments {
        /// How many non-empty documents the input has.
        count: usize,
    },
    /// `decode` was given a `kind: List`.
    #[error("expected one object, found a List (a List is read with decode_stream)")]
    UnexpectedList,
    /// The document is not a JSON object (mapping).
    #[error("expected an object with \"apiVersion\" and \"kind\", found {found}")]
    NotAnObject {
        /// What the document is instead, such as "an array".
        found: &'static str,
    },
    /// The object has no `apiVersion`, or an empty one.
    #[error("missing \"apiVersion\"")]
    MissingApiVersion,
    /// The object has no `kind`, or an empty one.
    #[error("missing \"kind\"")]
    MissingKind,
    /// `apiVersion` or `kind` is not a string.
    #[error("\"{field}\" must be a string, found {found}")]
    TypeMetaNotString {
        /// `apiVersion` or `kind`.
        field: &'static str,
        /// What it is instead, such as "a number".
        found: &'static str,
    },
    /// `apiVersion` is not `version` or `group/version`.
    #[error("invalid apiVersion {0:?}: expected \"version\" or \"group/version\"")]
    InvalidApiVersion(String),
    /// No type with a wire format is registered for the object's apiVersion and kind.
    #[error("{}", unknown_kind_message(.gvk, .versions))]
    UnknownKind {
        /// The apiVersion and kind the object carries.
        gvk: GroupVersionKind,
        /// The versions of the group that do have the kind, most preferred first.
        versions: Vec<GroupVersion>,
    },
    /// A field does not fit its type (serde's message), or a required field is missing.
    #[error("{}", field_message(.path, .message))]
    Field {
        /// The JSON path of the field, such as `spec.template.spec.containers[0].ports`; empty for
        /// the object itself.
        path: String,
        /// serde's description.
        message: String,
    },
    /// Strict mode: the input has fields the type does not know.
    #[error("strict decoding error: {}", unknown_fields_message(.0))]
    UnknownFields(Vec<String>),
    /// Converting the decoded object to the requested version failed.
    #[error("converting {from} to {target}: {source}")]
    Convert {
        /// The apiVersion and kind that were decoded (boxed, like `source`, to keep the error small).
        from: Box<GroupVersionKind>,
        /// The version it was converted to.
        target: GroupVersion,
        /// What went wrong.
        source: Box<ConversionError>,
    },
    /// A `List`'s `items` is not an array.
    #[error("\"items\" of a List must be an array, found {found}")]
    ListItemsNotArray {
        /// What `items` is instead.
        found: &'static str,
    },
    /// An error in one document of a stream.
    #[error("document {number} (line {line}): {source}")]
    Document {
        /// The document's number among the stream's non-empty documents, counted from 1.
        number: usize,
        /// The first line of the document in the input.
        line: usize,
        /// The error in that document.
        source: Box<DecodeError>,
    },
    /// A protobuf body is not the message its envelope names.
    #[error("malformed protobuf: {0}")]
    Protobuf(String),
    /// An error in one item of a `List`.
    #[error("items[{index}]: {source}")]
    Item {
        /// The item's index, counted from 0 as in a JSON path.
        index: usize,
        /// The error in that item.
        source: Box<DecodeError>,
    },
}

/// An error from encoding an object.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The object could not be converted to the target version.
    #[error(transparent)]
    Convert(#[from] ConversionError),
    /// The target version of the kind has no wire format (it is internal, or was registered
    /// without serde).
    #[error("{gvk} has no wire format: objects are encoded to an external version")]
    NoWireFormat {
        /// The kind in the target version.
        gvk: GroupVersionKind,
    },
    /// The serializer failed.
    #[error("serializing {gvk} as {format}: {message}")]
    Serialize {
        /// The kind being serialized.
        gvk: GroupVersionKind,
        /// The output format.
        format: Format,
        /// The serializer's description.
        message: String,
    },
    /// The kind in the target version has no protobuf form (protobuf-gen did not make it a
    /// message).
    #[error("{gvk} has no protobuf form")]
    NoProtobuf {
        /// The kind in the target version.
        gvk: GroupVersionKind,
    },
    /// The object could not be written as protobuf.
    #[error("writing {gvk} as protobuf: {message}")]
    Protobuf {
        /// The kind being written.
        gvk: GroupVersionKind,
        /// What went wrong.
        message: String,
    },
    /// An error in one object of a stream.
    #[error("object {number}: {source}")]
    Object {
        /// The object's position in the stream, counted from 1.
        number: usize,
        /// The error for that object.
        source: Box<EncodeError>,
    },
}

/// Words a missing kind like Go's `notRegisteredErr`, then lists the versions that do have it, since
/// the usual cause is a manifest written for a version this scheme does not serve.
fn unknown_kind_message(gvk: &GroupVersionKind, versions: &[GroupVersion]) -> String {
    let base = format!(
        "no kind {:?} is registered for version {:?}",
        gvk.kind,
        gvk.group_version().to_string()
    );
    if versions.is_empty() {
        return base;
    }
    let listed: Vec<String> = versions.iter().map(|gv| format!("{:?}", gv.to_string())).collect();
    format!("{base} (versions with kind {:?}: {})", gvk.kind, listed.join(", "))
}

/// Prefixes serde's message with the field path, unless the error is about the object itself.
fn field_message(path: &str, message: &str) -> String {
    if path.is_empty() {
        message.to_owned()
    } else {
        format!("{path}: {message}")
    }
}

/// Lists unknown fields the way Kubernetes' strict decoding does: `unknown field "spec.foo"`, joined
/// by commas.
fn unknown_fields_message(paths: &[String]) -> String {
    paths
        .iter()
        .map(|p| format!("unknown field {p:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}
