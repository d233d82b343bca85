//! The model every generator reads: Universe -> Package -> Type -> Field, with doc lines, checked
//! tags, resolved type references and source locations. Built once, then immutable; all
//! collections are ordered.

pub mod apply_configurations;
pub mod attrs;
mod build;
pub mod check;
pub mod declarative;
mod fields;
mod finish;
mod items;
pub mod json_fit;
pub mod kind;
pub mod known;
pub mod names;
mod primitive;
pub mod protobuf;
mod resolve;
pub mod schema;
pub mod serving;
pub mod tag_data;
pub mod tag_names;
mod tag_values;
pub mod tags;
#[cfg(test)]
mod tests;
pub mod unions;
pub mod validation;
pub mod verb;
pub mod version;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

pub use attrs::{FieldAttrs, PackageAttrs, TypeAttrs};
pub use build::build;
pub use kind::{Kind, Resource, Scope};
pub use primitive::Primitive;
pub use tags::Tags;
pub use version::Version;

use crate::diag::SourceLoc;

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

    /// Looks a type alias up by its reference.
    pub fn alias(&self, r: &TypeId) -> Option<&Alias> {
        self.packages.get(&r.package)?.aliases.get(&r.name)
    }
}

/// One API package: a group's internal version or one of its external versions.
#[derive(Debug)]
pub struct Package {
    /// Module path (`crate::apps::v1`).
    pub path: String,
    /// The package's directory in outputs: its module path below the crate root (`apps/v1`).
    pub dir: String,
    /// Display path of the file that defines the package's module (its `mod.rs`).
    pub mod_file: Arc<str>,
    /// That file's directory relative to the apis source root, which its `#[path]`s start from.
    pub mod_dir: String,
    /// API group (`apps`; empty for the core group).
    pub group: String,
    /// Version (`v1`), or the internal version.
    pub version: Version,
    /// The apiVersion string of the package's objects (`apps/v1`, `v1`).
    pub api_version: String,
    /// The group's name in identifiers (`Apps`; `+groupGoName`).
    pub group_go_name: String,
    /// The clientset's accessor of this group-version (`apps_v1`).
    pub accessor: String,
    /// The group-version's client (`AppsV1Client`).
    pub group_client: String,
    /// The informer factory's accessor of the group and the group's informers (`apps`,
    /// `AppsInformers`).
    pub informer_group: (String, String),
    /// The group's accessor of this version's informers and their type (`v1`, `AppsV1Informers`).
    pub informer_version: (String, String),
    /// The OpenAPI model-name prefix of its types (`io.k8s.api.apps.v1`).
    pub model_package: String,
    /// Package tags (`//!` lines of `mod.rs`), for their locations.
    pub tags: Tags,
    /// The package tags, typed.
    pub attrs: PackageAttrs,
    /// Names of every package-level tag written in the package's files, valid or not: a tag that
    /// was written but rejected has been reported, so its absence must not be reported again.
    pub written_tags: BTreeSet<String>,
    /// Types of every file of the package, by name.
    pub types: BTreeMap<String, Type>,
    /// Type aliases of every file of the package, by name.
    pub aliases: BTreeMap<String, Alias>,
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
        self.version.is_internal()
    }

    /// Where a package tag is written, or the top of `mod.rs` when it is absent.
    pub fn tag_loc(&self, name: &str) -> SourceLoc {
        let top = SourceLoc {
            file: self.mod_file.clone(),
            line: 1,
            col: 1,
            len: 1,
        };
        self.tags.loc(name, &top)
    }

    /// Whether a package tag was written but rejected (and so already reported).
    pub fn tag_rejected(&self, name: &str) -> bool {
        self.written_tags.contains(name) && !self.tags.has(name)
    }

    /// Whether openapi-gen describes the package's types: an external version tagged
    /// `+k8s:openapi-gen=true`, or with a type that is.
    pub fn has_openapi(&self) -> bool {
        !self.is_internal() && (self.attrs.openapi == Some(true) || self.types.values().any(|t| t.selection.openapi))
    }

    /// Types that are kinds (have TypeMeta), in name order, with their kind.
    pub fn kinds(&self) -> impl Iterator<Item = (&Type, &Kind)> {
        self.types.values().filter_map(|t| Some((t, t.kind.as_ref()?)))
    }

    /// The id of one of this package's types.
    pub fn id(&self, name: &str) -> TypeId {
        TypeId {
            package: self.path.clone(),
            name: name.to_string(),
        }
    }
}

/// A type alias of an API package (`pub type Protocol = String;`): Go's named non-struct types.
/// Fields that name it are resolved to its target; its tags apply to them, as a Go named type's
/// validation tags apply to its uses. (Its doc, like a Go named type's, does not reach the
/// descriptions of the fields.)
#[derive(Debug)]
pub struct Alias {
    /// Its name.
    pub name: String,
    /// Its tags, for their locations.
    pub tags: Tags,
    /// Its tags, typed.
    pub attrs: TypeAttrs,
    /// What it stands for.
    pub target: TypeRef,
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
    /// Type tags, for their locations.
    pub tags: Tags,
    /// The type tags, typed.
    pub attrs: TypeAttrs,
    /// Where the type's name is.
    pub loc: SourceLoc,
    /// Struct fields or enum variants.
    pub shape: Shape,
    /// Set when the type is a kind (has TypeMeta).
    pub kind: Option<Kind>,
    /// How its `runtime::Object` impl reads and writes apiVersion and kind, when it asks for one.
    pub object: Option<ObjectAccess>,
    /// Which generators select it.
    pub selection: Selection,
    /// Traits it derives (`Clone`, `Debug`, ...).
    pub derives: BTreeSet<String>,
    /// Traits implemented for it by hand somewhere in the package (`Clone`, ...).
    pub impls: BTreeSet<String>,
    /// Whether it has generic parameters (not supported by the generators).
    pub generic: bool,
    /// Whether serde derives or attributes are present (external types have them).
    pub serde: bool,
    /// `#[serde(transparent)]`: serialized as its one field.
    pub transparent: bool,
    /// Its protobuf form, when it is a message (`protobuf::decide`).
    pub protobuf: Option<protobuf::Message>,
    /// Its apply configuration's name (`DeploymentApplyConfiguration`), when applyconfiguration-gen
    /// selects it: reached from a `+genclient` kind with ObjectMeta (`apply_configurations::decide`).
    pub apply_configuration: Option<String>,
}

/// Where a `runtime::Object` keeps its apiVersion and kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjectAccess {
    /// In a TypeMeta field of this name.
    TypeMeta(String),
    /// In two string fields of its own, as ObjectReference keeps them (`api_version`, `kind`).
    Fields {
        /// The apiVersion field's name.
        api_version: String,
        /// The kind field's name.
        kind: String,
    },
}

/// Which generators select a type, decided once from the package tag and the type's override;
/// generic types are never selected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// deepcopy: `+k8s:deepcopy-gen=package` unless `=false`, or `=true`.
    pub deepcopy: bool,
    /// defaults: a `+k8s:defaulter-gen` package unless `=false`, or `=true`.
    pub defaults: bool,
    /// openapi: an external `+k8s:openapi-gen=true` package unless `=false`, or `=true`.
    pub openapi: bool,
    /// conversion: not `+k8s:conversion-gen=false`.
    pub conversion: bool,
}

impl Type {
    /// Whether the type is a kind: a struct with a TypeMeta field.
    pub fn is_kind(&self) -> bool {
        self.kind.is_some()
    }

    /// The resource the kind is served as.
    pub fn resource(&self) -> Option<&Resource> {
        self.kind.as_ref()?.resource.as_ref()
    }

    /// The typed client the kind's `+genclient` tags ask for, which its lister and informer
    /// build on; none for a kind served only as another kind's subresource (Scale).
    pub fn client(&self) -> Option<&kind::Client> {
        self.resource()?.client.as_ref()
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

    /// Whether a string enum: unit variants only, serialized by serde as their names (Go's string
    /// types with constants).
    pub fn string_enum(&self) -> Option<&[Variant]> {
        self.unit_variants().filter(|_| self.serde)
    }

    /// The single field a struct serializes as: a newtype (`struct JSON(serde_json::Value)`), or
    /// a `#[serde(transparent)]` struct's one field that is not skipped.
    pub fn newtype(&self) -> Option<&Field> {
        match &self.shape {
            Shape::Struct { fields, tuple: true } if fields.len() == 1 => fields.first(),
            Shape::Struct { fields, .. } if self.transparent => {
                let mut wire = fields.iter().filter(|f| !f.skip);
                wire.next().filter(|_| wire.next().is_none())
            }
            _ => None,
        }
    }

    /// Whether its JSON form is written by hand (a Serialize impl without serde derives), so its
    /// fields say nothing about the wire.
    pub fn hand_written_json(&self) -> bool {
        self.impls.contains("Serialize") && !self.serde
    }

    /// Whether `Clone` is derived or implemented by hand.
    pub fn has_clone(&self) -> bool {
        self.implements("Clone")
    }

    /// Whether a trait is derived or implemented by hand: either counts.
    pub fn implements(&self, name: &str) -> bool {
        self.derives.contains(name) || self.impls.contains(name)
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
    /// `+k8s:enumExclude` (under `+k8s:ifEnabled`/`ifDisabled` or not): when the value is not
    /// accepted although the enum has it.
    pub excluded: Vec<declarative::Validation>,
    /// Where it is.
    pub loc: SourceLoc,
}

/// One field of a struct or variant.
#[derive(Debug)]
pub struct Field {
    /// Rust name (`host_ip`), or the position (`0`) of a tuple field.
    pub name: String,
    /// JSON property name serde writes: `rename` (its serialize side), else the rename rule.
    pub json_name: String,
    /// Other names serde accepts on input: `alias`es and `rename(deserialize = ...)`.
    pub aliases: Vec<String>,
    /// The type alias the field's type names (`protocol: Option<Protocol>`), whose tags apply
    /// to the field as a Go named type's do; `ty` is what the alias stands for.
    pub alias: Option<TypeId>,
    /// Resolved type.
    pub ty: TypeRef,
    /// Whether the property may be absent: `+optional`, else `Option` or serde `default`; `+required`
    /// overrides.
    pub optional: bool,
    /// serde `flatten`: inlined into the parent.
    pub flatten: bool,
    /// serde `skip_serializing_if`: left out when empty, as Go's omitempty.
    pub omitempty: bool,
    /// Never on the wire (serde `skip`).
    pub skip: bool,
    /// Prose doc lines.
    pub docs: Vec<String>,
    /// Field tags, for their locations.
    pub tags: Tags,
    /// The field tags, typed.
    pub attrs: FieldAttrs,
    /// Where the field's name is.
    pub loc: SourceLoc,
    /// Where the field's type is written.
    pub ty_loc: SourceLoc,
}

/// A resolved type reference.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TypeRef {
    /// `bool`, integers, floats, `char`.
    Primitive(Primitive),
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
            TypeRef::Primitive(p) => f.write_str(p.as_str()),
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

/// A hand-written free function of a package (`convert_*`, `set_defaults_*`, ...), with its
/// signature resolved in its module, so a wrong one is a diagnostic rather than a compile error in
/// generated code.
#[derive(Debug)]
pub struct Function {
    /// Function name.
    pub name: String,
    /// Defining module.
    pub module: String,
    /// Its parameters.
    pub params: Vec<Param>,
    /// Its return type.
    pub returns: Returns,
    /// Where the name is.
    pub loc: SourceLoc,
}

/// How a parameter is passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// `&T`.
    Ref,
    /// `&mut T`.
    RefMut,
    /// By value (or a receiver).
    Value,
}

/// One parameter of a hand-written function.
#[derive(Debug)]
pub struct Param {
    /// The type as written (`&v1::Deployment`).
    pub written: String,
    /// How it is passed.
    pub pass: Pass,
    /// The type behind the reference, when it resolves.
    pub ty: Option<TypeRef>,
}

/// What a hand-written function returns.
#[derive(Debug, PartialEq, Eq)]
pub enum Returns {
    /// `()`.
    Unit,
    /// `Result<(), ConversionError>` (the runtime's, by any path).
    ConversionResult,
    /// Anything else, as written.
    Other(String),
}

impl Function {
    /// Whether the parameters are exactly these, passed this way, and the return type is `returns`.
    pub fn has_signature(&self, params: &[(Pass, &TypeId)], returns: &Returns) -> bool {
        self.params.len() == params.len()
            && self.returns == *returns
            && self
                .params
                .iter()
                .zip(params)
                .all(|(p, (pass, id))| p.pass == *pass && matches!(&p.ty, Some(TypeRef::Named(t)) if t == *id))
    }
}
