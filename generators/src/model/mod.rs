//! The model every generator reads: Universe -> Package -> Type -> Field, with doc lines, checked
//! tags, resolved type references and source locations. Built once, then immutable; all
//! collections are ordered.

mod build;
pub mod check;
pub mod names;
mod resolve;
mod tag_values;
pub mod tags;
pub mod validation;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

pub use build::build;
pub use tags::Tags;

use crate::diag::SourceLoc;

/// The version name of a group's internal (hub) package.
pub const INTERNAL_VERSION: &str = "__internal";

/// Every API package of one apis source tree.
#[derive(Debug, Default)]
pub struct Universe {
    /// Packages keyed by module path (`crate::apps::v1`).
    pub packages: BTreeMap<String, Package>,
}

impl Universe {
    /// Looks a named type up by its reference.
    pub fn get(&self, r: &TypeId) -> Option<&Type> {
        self.packages.get(&r.package)?.types.get(&r.name)
    }
}

/// One API package: a group's internal version or one of its external versions.
#[derive(Debug)]
pub struct Package {
    /// Module path (`crate::apps::v1`).
    pub path: String,
    /// Directory relative to the apis source root (`apps/v1`).
    pub dir: String,
    /// Display path of the package's `mod.rs`.
    pub mod_file: Arc<str>,
    /// API group (`apps`; empty for the core group).
    pub group: String,
    /// Version (`v1`), or [`INTERNAL_VERSION`].
    pub version: String,
    /// Package tags (`//!` lines of `mod.rs`).
    pub tags: Tags,
    /// Names of every package-level tag written in the package's files, valid or not: a tag that
    /// was written but rejected has been reported, so its absence must not be reported again.
    pub written_tags: BTreeSet<String>,
    /// Prose of the package doc comment.
    pub docs: Vec<String>,
    /// Types of every file of the package, by name.
    pub types: BTreeMap<String, Type>,
    /// Hand-written free functions of every file of the package, by name.
    pub functions: BTreeMap<String, Function>,
    /// `mod` declarations in `mod.rs`, with their `#[path]` if any.
    pub module_decls: Vec<ModDecl>,
    /// Modules whose items `mod.rs` re-exports with `pub use <module>::*;`.
    pub reexports: Vec<String>,
}

impl Package {
    /// Whether this is the group's internal (hub) version.
    pub fn is_internal(&self) -> bool {
        self.version == INTERNAL_VERSION
    }

    /// Where a package tag is written, or the top of `mod.rs` when it is absent.
    pub fn tag_loc(&self, name: &str) -> SourceLoc {
        self.tags.get(name).map(|t| t.loc.clone()).unwrap_or_else(|| SourceLoc {
            file: self.mod_file.clone(),
            line: 1,
            col: 1,
            len: 1,
        })
    }

    /// Types that are kinds (have TypeMeta), in name order.
    pub fn kinds(&self) -> impl Iterator<Item = &Type> {
        self.types.values().filter(|t| t.is_kind())
    }
}

/// A `mod name;` declaration of a package's `mod.rs`.
#[derive(Clone, Debug)]
pub struct ModDecl {
    /// Module name.
    pub name: String,
    /// Value of its `#[path = "..."]` attribute.
    pub path_attr: Option<String>,
    /// Where the module's name is.
    pub loc: SourceLoc,
}

/// A reference to a named type of the apis crate.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TypeId {
    /// Package module path (`crate::core::v1`).
    pub package: String,
    /// Type name.
    pub name: String,
}

/// A struct or enum of an API package.
#[derive(Debug)]
pub struct Type {
    /// Type name.
    pub name: String,
    /// Module that defines it (`crate::apps::v1::types`), for paths in generated code.
    pub module: String,
    /// Prose doc lines.
    pub docs: Vec<String>,
    /// Type tags.
    pub tags: Tags,
    /// Where the type's name is.
    pub loc: SourceLoc,
    /// Struct fields or enum variants.
    pub shape: Shape,
    /// Traits it derives (`Clone`, `Debug`, ...).
    pub derives: BTreeSet<String>,
    /// Traits implemented for it by hand somewhere in the package (`Clone`, ...).
    pub impls: BTreeSet<String>,
    /// Whether it has generic parameters (not supported by the generators).
    pub generic: bool,
    /// Whether serde derives or attributes are present (external types have them).
    pub serde: bool,
}

impl Type {
    /// The TypeMeta field, if this type is a kind.
    pub fn type_meta_field(&self) -> Option<&Field> {
        self.fields()
            .iter()
            .find(|f| f.ty.strip_option().is_external(External::TypeMeta))
    }

    /// Whether the type is a kind: a struct with a TypeMeta field.
    pub fn is_kind(&self) -> bool {
        self.type_meta_field().is_some()
    }

    /// Struct fields (empty for enums).
    pub fn fields(&self) -> &[Field] {
        match &self.shape {
            Shape::Struct { fields, .. } => fields,
            Shape::Enum { .. } => &[],
        }
    }

    /// The variants of an enum whose variants all carry no data (a string enum on the wire).
    pub fn unit_variants(&self) -> Option<&[Variant]> {
        match &self.shape {
            Shape::Enum { variants } if !variants.is_empty() && variants.iter().all(|v| v.fields.is_empty()) => {
                Some(variants)
            }
            _ => None,
        }
    }

    /// Whether `Clone` is derived or implemented by hand.
    pub fn has_clone(&self) -> bool {
        self.derives.contains("Clone") || self.impls.contains("Clone")
    }
}

/// The body of a type.
#[derive(Debug)]
pub enum Shape {
    /// A struct; `tuple` when its fields are positional.
    Struct {
        /// Fields in declaration order.
        fields: Vec<Field>,
        /// Whether fields are positional (`struct A(String)`).
        tuple: bool,
    },
    /// An enum.
    Enum {
        /// Variants in declaration order.
        variants: Vec<Variant>,
    },
}

/// One enum variant.
#[derive(Debug)]
pub struct Variant {
    /// Variant name.
    pub name: String,
    /// Its JSON value (serde `rename`, else `rename_all` applied to the name).
    pub json_name: String,
    /// Its fields (empty for unit variants).
    pub fields: Vec<Field>,
    /// Whether the fields are positional.
    pub tuple: bool,
    /// Prose doc lines.
    pub docs: Vec<String>,
    /// Where it is.
    pub loc: SourceLoc,
}

/// One field of a struct or variant.
#[derive(Debug)]
pub struct Field {
    /// Rust name (`host_ip`), or the position (`0`) of a tuple field.
    pub name: String,
    /// JSON property name from serde `rename`/`rename_all`.
    pub json_name: String,
    /// Resolved type.
    pub ty: TypeRef,
    /// Whether the property may be absent: `+optional`, else `Option` or serde `default`; `+required`
    /// overrides.
    pub optional: bool,
    /// serde `flatten`: inlined into the parent.
    pub flatten: bool,
    /// Never on the wire (serde `skip`).
    pub skip: bool,
    /// Prose doc lines.
    pub docs: Vec<String>,
    /// Field tags.
    pub tags: Tags,
    /// Where the field's name is.
    pub loc: SourceLoc,
    /// Where the field's type is written.
    pub ty_loc: SourceLoc,
}

/// A resolved type reference.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TypeRef {
    /// `bool`, integers, floats, `char`.
    Primitive(String),
    /// `String`.
    String,
    /// `Option<T>`.
    Option(Box<TypeRef>),
    /// `Vec<T>`.
    Vec(Box<TypeRef>),
    /// `Box<T>`.
    Box(Box<TypeRef>),
    /// `BTreeMap<K, V>` (ordered) or `HashMap<K, V>`.
    Map {
        /// Whether the map is ordered (`BTreeMap`).
        ordered: bool,
        /// Key type.
        key: Box<TypeRef>,
        /// Value type.
        value: Box<TypeRef>,
    },
    /// A type of an API package.
    Named(TypeId),
    /// A type from k8s-openapi, kube or serde_json.
    External(External, String),
    /// A type that is valid Rust but cannot be part of an API object, with the reason.
    Unsupported(String, String),
    /// A path that names nothing known; already reported when the model was built, so generators
    /// skip it rather than report it again.
    Unresolved(String),
}

impl TypeRef {
    /// Unwraps one `Option` layer.
    pub fn strip_option(&self) -> &TypeRef {
        match self {
            TypeRef::Option(inner) => inner,
            other => other,
        }
    }

    /// Whether this is the given well-known external type.
    pub fn is_external(&self, which: External) -> bool {
        matches!(self, TypeRef::External(w, _) if *w == which)
    }
}

impl std::fmt::Display for TypeRef {
    /// The type as a reader would write it, for messages (`Option<Vec<String>>`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TypeRef::Primitive(p) => f.write_str(p),
            TypeRef::String => f.write_str("String"),
            TypeRef::Option(t) => write!(f, "Option<{t}>"),
            TypeRef::Vec(t) => write!(f, "Vec<{t}>"),
            TypeRef::Box(t) => write!(f, "Box<{t}>"),
            TypeRef::Map { ordered, key, value } => {
                write!(f, "{}<{key}, {value}>", if *ordered { "BTreeMap" } else { "HashMap" })
            }
            TypeRef::Named(id) => write!(f, "{}::{}", id.package, id.name),
            TypeRef::External(_, path) => f.write_str(path.rsplit("::").next().unwrap_or(path)),
            TypeRef::Unsupported(written, _) | TypeRef::Unresolved(written) => f.write_str(written),
        }
    }
}

/// The external types the generators know by meaning. `Other` covers any other k8s-openapi type,
/// which is cloneable and serializable like ours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum External {
    /// `kube_core::TypeMeta` (apiVersion, kind).
    TypeMeta,
    /// `ObjectMeta`.
    ObjectMeta,
    /// `ListMeta`.
    ListMeta,
    /// `Time`.
    Time,
    /// `MicroTime`.
    MicroTime,
    /// `IntOrString`.
    IntOrString,
    /// `Quantity`.
    Quantity,
    /// `ByteString`.
    ByteString,
    /// `serde_json::Value`.
    Json,
    /// Any other k8s-openapi type.
    Other,
}

/// A hand-written free function of a package (`convert_*`, `set_defaults_*`, ...).
#[derive(Debug)]
pub struct Function {
    /// Function name.
    pub name: String,
    /// Defining module.
    pub module: String,
    /// Parameter types as written, normalised token text.
    pub inputs: Vec<String>,
    /// Return type as written, normalised token text (empty for `()`).
    pub output: String,
    /// Where the name is.
    pub loc: SourceLoc,
}
