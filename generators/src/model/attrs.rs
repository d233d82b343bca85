//! Typed tags: every checked tag value of a package, type or field parsed once, when the model is
//! built, into the values generators read (serde_derive's `attr::Container` / `attr::Field`).
//! Generators never look at a tag's text; where a diagnostic needs a tag's place, `Tags::loc`
//! gives it.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::tags::{Tags, key_values, name as tag};
use super::validation;
use super::verb::Verb;

/// The package tags, typed.
#[derive(Clone, Debug, Default)]
pub struct PackageAttrs {
    /// `+groupGoName`: the group's name in generated identifiers.
    pub group_go_name: Option<String>,
    /// `+k8s:deepcopy-gen=package` (true) or `=false`.
    pub deepcopy: Option<bool>,
    /// `+k8s:register-gen=false` turns registration off.
    pub register: bool,
    /// `+k8s:conversion-gen=<paths>`: the peer packages, the first being the internal (hub)
    /// package; empty when absent or `false`.
    pub conversion_peers: Vec<String>,
    /// `+k8s:conversion-gen-external-types=<path>`.
    pub conversion_external_types: Option<String>,
    /// `+k8s:defaulter-gen=<meta type or field>`: which types are object roots.
    pub defaulter: Option<DefaulterRoots>,
    /// `+k8s:validation-gen=<meta type or field>`: which types are registered for validation.
    pub validation: Option<DefaulterRoots>,
    /// `+k8s:openapi-gen=true|false`.
    pub openapi: Option<bool>,
    /// `+k8s:openapi-model-package=<prefix>`.
    pub openapi_model_package: Option<String>,
    /// `+k8s:prerelease-lifecycle-gen=true`.
    pub lifecycle: bool,
    /// `+k8s:crd-gen=true`.
    pub crd: bool,
    /// `+k8s:protobuf-gen=package`: the package's types are protobuf messages.
    pub protobuf: bool,
}

/// Which types of a `+k8s:defaulter-gen` package are object roots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DefaulterRoots {
    /// Types with a field of this meta type (`TypeMeta`, `ObjectMeta`, `ListMeta`).
    Meta(super::External),
    /// Types with a field of this (snake-case) name.
    Field(String),
}

impl PackageAttrs {
    /// Reads the typed values of checked package tags.
    pub fn from_tags(tags: &Tags) -> Self {
        let value = |name: &str| tags.value(name).map(str::to_string);
        let conversion_peers = match tags.value(tag::CONVERSION) {
            None | Some("false") => Vec::new(),
            Some(v) => v.split(',').map(|p| p.trim().to_string()).collect(),
        };
        let roots = |name: &str| match tags.value(name) {
            None | Some("false") => None,
            Some("TypeMeta") => Some(DefaulterRoots::Meta(super::External::TypeMeta)),
            Some("ObjectMeta") => Some(DefaulterRoots::Meta(super::External::ObjectMeta)),
            Some("ListMeta") => Some(DefaulterRoots::Meta(super::External::ListMeta)),
            Some(field) => Some(DefaulterRoots::Field(heck::ToSnakeCase::to_snake_case(field))),
        };
        let defaulter = roots(tag::DEFAULTER);
        PackageAttrs {
            group_go_name: value(tag::GROUP_GO_NAME),
            deepcopy: tags.value(tag::DEEPCOPY).map(|v| v == "package"),
            register: tags.value(tag::REGISTER) != Some("false"),
            conversion_peers,
            conversion_external_types: value(tag::CONVERSION_EXTERNAL_TYPES),
            defaulter,
            validation: roots(tag::VALIDATION_GEN),
            openapi: tags.value(tag::OPENAPI).map(|v| v == "true"),
            openapi_model_package: value(tag::OPENAPI_MODEL_PACKAGE),
            lifecycle: tags.value(tag::LIFECYCLE) == Some("true"),
            crd: tags.value(tag::CRD) == Some("true"),
            protobuf: tags.value(tag::PROTOBUF_GEN) == Some("package"),
        }
    }
}

/// A Kubernetes release, `(major, minor)`.
pub type Release = (u32, u32);

/// The type tags, typed.
#[derive(Clone, Debug, Default)]
pub struct TypeAttrs {
    /// `+k8s:deepcopy-gen=true|false`.
    pub deepcopy: Option<bool>,
    /// `+k8s:deepcopy-gen:interfaces=runtime::Object`.
    pub object: bool,
    /// Whether any `+k8s:deepcopy-gen:interfaces` is written (an unknown one is reported).
    pub interfaces: bool,
    /// `+k8s:conversion-gen=false`.
    pub conversion_opt_out: bool,
    /// `+k8s:conversion-gen:explicit-from=net/url.Values`: decoded from URL query parameters.
    pub from_query: bool,
    /// `+k8s:defaulter-gen=true|false`.
    pub defaulter: Option<bool>,
    /// `+k8s:openapi-gen=true|false` and passed-through extensions.
    pub openapi: OpenApiAttrs,
    /// `+k8s:prerelease-lifecycle-gen:*` as written.
    pub lifecycle: LifecycleTags,
    /// `+genclient` and its options.
    pub client: ClientTags,
    /// `+resourceName`.
    pub resource_name: Option<String>,
    /// `+k8s:isSubresource=/<name>`: the subresource name.
    pub subresource_of: Option<String>,
    /// `+enum`.
    pub is_enum: bool,
    /// `+structType` on the type.
    pub struct_type: Option<MapType>,
    /// `+union`: the type's own fields form a union.
    pub union: bool,
    /// kube-openapi value validations and CEL rules, as schema keys.
    pub validations: Map<String, Value>,
    /// validation-gen's rules on the type (`+k8s:enum`, `+k8s:supportsSubresource`, ...).
    pub declarative: Vec<super::declarative::Validation>,
    /// `+k8s:supportsSubresource`: the subresources (`status`) the kind's validation serves.
    pub supports_subresources: Vec<String>,
    /// `+k8s:crd-gen:*`.
    pub crd: CrdAttrs,
    /// `+protobuf=true|false`: a message or not, whatever the package says.
    pub protobuf: Option<bool>,
}

/// `+k8s:openapi-gen` on a type or field.
#[derive(Clone, Debug, Default)]
pub struct OpenApiAttrs {
    /// `=true` or `=false`.
    pub enabled: Option<bool>,
    /// `=x-kubernetes-<name>:<value>` extensions, as (`x-kubernetes-<name>`, value).
    pub extensions: Vec<(String, String)>,
}

impl OpenApiAttrs {
    fn from_tags(tags: &Tags) -> Self {
        let mut out = OpenApiAttrs::default();
        for v in tags.all(tag::OPENAPI).filter_map(|t| t.value.as_deref()) {
            match v {
                "true" => out.enabled = Some(true),
                "false" => out.enabled = Some(false),
                ext => {
                    if let Some((name, value)) = ext.split_once(':') {
                        out.extensions.push((name.to_string(), value.to_string()));
                    }
                }
            }
        }
        out
    }
}

/// The prerelease-lifecycle tags of a type as written; `Kind::lifecycle` applies the defaults.
#[derive(Clone, Debug, Default)]
pub struct LifecycleTags {
    /// `:introduced=<major.minor>`.
    pub introduced: Option<Release>,
    /// `:deprecated=<major.minor>`.
    pub deprecated: Option<Release>,
    /// `:removed=<major.minor>`.
    pub removed: Option<Release>,
    /// `:replacement=group,version,Kind`, checked when kinds are built.
    pub replacement: Option<(String, String, String)>,
}

fn release(v: Option<&str>) -> Option<Release> {
    let (a, b) = v?.split_once('.')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// client-gen's tags on a type.
#[derive(Clone, Debug, Default)]
pub struct ClientTags {
    /// `+genclient`.
    pub genclient: bool,
    /// `+genclient:nonNamespaced`.
    pub non_namespaced: bool,
    /// `+genclient:noVerbs`.
    pub no_verbs: bool,
    /// `+genclient:noStatus`.
    pub no_status: bool,
    /// `+genclient:readonly`.
    pub readonly: bool,
    /// `+genclient:onlyVerbs=...`.
    pub only_verbs: Option<BTreeSet<Verb>>,
    /// `+genclient:skipVerbs=...`.
    pub skip_verbs: BTreeSet<Verb>,
    /// `+genclient:method=...` entries, unresolved.
    pub methods: Vec<MethodTag>,
}

/// One `+genclient:method=Name,verb=...` as written.
#[derive(Clone, Debug)]
pub struct MethodTag {
    /// The method's name.
    pub name: String,
    /// `verb=`; `None` when it names no verb, which the tag check reports.
    pub verb: Option<Verb>,
    /// `subresource=`.
    pub subresource: Option<String>,
    /// `input=`, a Rust path.
    pub input: Option<String>,
    /// `result=`, a Rust path.
    pub result: Option<String>,
    /// `input=` resolved in the type's module, when it names a type.
    pub input_ty: Option<super::TypeRef>,
    /// `result=` resolved in the type's module, when it names a type.
    pub result_ty: Option<super::TypeRef>,
    /// Where the tag is.
    pub loc: crate::diag::SourceLoc,
}

/// The verbs of a `onlyVerbs`/`skipVerbs` list; a name that is no verb is the tag check's error.
fn verbs(v: &str) -> BTreeSet<Verb> {
    list(v).iter().filter_map(|v| Verb::parse(v)).collect()
}

fn list(v: &str) -> Vec<String> {
    v.split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

impl ClientTags {
    fn from_tags(tags: &Tags) -> Self {
        let methods = tags
            .all(tag::METHOD)
            .filter_map(|t| {
                let mut parts = t.value.as_deref()?.split(',');
                let name = parts.next()?.trim().to_string();
                let mut m = MethodTag {
                    name,
                    verb: None,
                    subresource: None,
                    input: None,
                    result: None,
                    input_ty: None,
                    result_ty: None,
                    loc: t.loc.clone(),
                };
                for (k, v) in parts.filter_map(|p| p.split_once('=')) {
                    let v = v.trim().to_string();
                    match k.trim() {
                        "verb" => m.verb = Verb::parse(&v),
                        "subresource" => m.subresource = Some(v),
                        "input" => m.input = Some(v),
                        "result" => m.result = Some(v),
                        _ => {}
                    }
                }
                Some(m)
            })
            .collect();
        ClientTags {
            genclient: tags.has(tag::GENCLIENT),
            non_namespaced: tags.has(tag::NON_NAMESPACED),
            no_verbs: tags.has(tag::NO_VERBS),
            no_status: tags.has(tag::NO_STATUS),
            readonly: tags.has(tag::READONLY),
            only_verbs: tags.value(tag::ONLY_VERBS).map(verbs),
            skip_verbs: tags.value(tag::SKIP_VERBS).map(verbs).unwrap_or_default(),
            methods,
        }
    }
}

/// A tag's typed value with where the tag is written.
#[derive(Clone, Debug)]
pub struct Located<T> {
    /// The value.
    pub value: T,
    /// The tag's place.
    pub loc: crate::diag::SourceLoc,
}

/// The `+k8s:crd-gen:*` tags of a kind.
#[derive(Clone, Debug, Default)]
pub struct CrdAttrs {
    /// `+k8s:crd-gen=false` leaves the kind out.
    pub opt_out: bool,
    /// `:storageversion`.
    pub storage_version: Option<Located<()>>,
    /// `:subresource:status`.
    pub status: Option<Located<()>>,
    /// `:subresource:scale=...` pairs.
    pub scale: Option<Located<Vec<(String, String)>>>,
    /// `:printcolumn=...` pairs, one entry per tag.
    pub print_columns: Vec<Located<Vec<(String, String)>>>,
    /// `:shortNames=`.
    pub short_names: Option<Located<Vec<String>>>,
    /// `:categories=`.
    pub categories: Option<Located<Vec<String>>>,
    /// `:webhook=...` pairs.
    pub webhook: Option<Located<Vec<(String, String)>>>,
}

impl CrdAttrs {
    fn from_tags(tags: &Tags) -> Self {
        fn located<T>(t: &super::tags::Tag, value: T) -> Located<T> {
            Located {
                value,
                loc: t.loc.clone(),
            }
        }
        let pairs = |t: &super::tags::Tag| Some(located(t, key_values(t.value.as_deref()?).ok()?));
        let flag = |name: &str| tags.get(name).map(|t| located(t, ()));
        let names = |name: &str| {
            tags.get(name)
                .map(|t| located(t, list(t.value.as_deref().unwrap_or_default())))
        };
        CrdAttrs {
            opt_out: tags.value(tag::CRD) == Some("false"),
            storage_version: flag(tag::CRD_STORAGE_VERSION),
            status: flag(tag::CRD_STATUS),
            scale: tags.get(tag::CRD_SCALE).and_then(pairs),
            print_columns: tags.all(tag::CRD_PRINT_COLUMN).filter_map(pairs).collect(),
            short_names: names(tag::CRD_SHORT_NAMES),
            categories: names(tag::CRD_CATEGORIES),
            webhook: tags.get(tag::CRD_WEBHOOK).and_then(pairs),
        }
    }
}

impl TypeAttrs {
    /// Reads the typed values of checked type tags.
    pub fn from_tags(tags: &Tags) -> Self {
        let bool_of = |name: &str| tags.value(name).map(|v| v == "true");
        let replacement = tags.value(tag::LIFECYCLE_REPLACEMENT).and_then(|v| {
            let p: Vec<&str> = v.split(',').map(str::trim).collect();
            (p.len() == 3).then(|| (p[0].to_string(), p[1].to_string(), p[2].to_string()))
        });
        TypeAttrs {
            deepcopy: bool_of(tag::DEEPCOPY),
            object: tags
                .all(tag::DEEPCOPY_INTERFACES)
                .filter_map(|t| t.value.as_deref())
                .flat_map(|v| v.split(','))
                .any(super::known::is_object_interface),
            interfaces: tags.has(tag::DEEPCOPY_INTERFACES),
            conversion_opt_out: tags.value(tag::CONVERSION) == Some("false"),
            from_query: tags.value(tag::CONVERSION_EXPLICIT_FROM) == Some(super::known::URL_VALUES),
            defaulter: bool_of(tag::DEFAULTER),
            openapi: OpenApiAttrs::from_tags(tags),
            lifecycle: LifecycleTags {
                introduced: release(tags.value(tag::LIFECYCLE_INTRODUCED)),
                deprecated: release(tags.value(tag::LIFECYCLE_DEPRECATED)),
                removed: release(tags.value(tag::LIFECYCLE_REMOVED)),
                replacement,
            },
            client: ClientTags::from_tags(tags),
            resource_name: tags.value(tag::RESOURCE_NAME).map(str::to_string),
            subresource_of: tags
                .value(tag::IS_SUBRESOURCE)
                .map(|p| super::tag_values::unquote(p).trim_start_matches('/').to_string()),
            is_enum: tags.has(tag::ENUM),
            struct_type: tags.value(tag::STRUCT_TYPE).and_then(MapType::parse),
            union: tags.has(tag::UNION),
            validations: validation::schema(tags),
            declarative: super::declarative::of(tags),
            supports_subresources: tags
                .all(tag::SUPPORTS_SUBRESOURCE)
                .filter_map(|t| t.value.as_deref())
                .map(|p| super::tag_values::unquote(p).trim_start_matches('/').to_string())
                .collect(),
            crd: CrdAttrs::from_tags(tags),
            protobuf: bool_of(tag::PROTOBUF),
        }
    }
}

/// `+listType`: how a list merges (`x-kubernetes-list-type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListType {
    /// Replaced whole.
    Atomic,
    /// Unique scalar items.
    Set,
    /// Items keyed by `+listMapKey`s.
    Map,
}

/// `+mapType` / `+structType`: whether an object merges key by key (`x-kubernetes-map-type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapType {
    /// Replaced whole.
    Atomic,
    /// Merged key by key.
    Granular,
}

impl ListType {
    fn parse(v: &str) -> Option<Self> {
        Some(match v {
            "atomic" => ListType::Atomic,
            "set" => ListType::Set,
            "map" => ListType::Map,
            _ => return None,
        })
    }

    /// The extension's value.
    pub fn as_str(self) -> &'static str {
        match self {
            ListType::Atomic => "atomic",
            ListType::Set => "set",
            ListType::Map => "map",
        }
    }
}

impl MapType {
    fn parse(v: &str) -> Option<Self> {
        match v {
            "atomic" => Some(MapType::Atomic),
            "granular" => Some(MapType::Granular),
            _ => None,
        }
    }

    /// The extension's value.
    pub fn as_str(self) -> &'static str {
        match self {
            MapType::Atomic => "atomic",
            MapType::Granular => "granular",
        }
    }
}

/// The field tags, typed.
#[derive(Clone, Debug, Default)]
pub struct FieldAttrs {
    /// `+default=<json>`, parsed.
    pub default: Option<Value>,
    /// `+default=` as written, for messages (also `ref(<name>)`, defaulter-gen's reference to a
    /// constant, which parses as no JSON).
    pub default_text: Option<String>,
    /// `+listType`.
    pub list_type: Option<ListType>,
    /// `+listMapKey` values, in order.
    pub list_map_keys: Vec<String>,
    /// `+mapType`.
    pub map_type: Option<MapType>,
    /// `+structType`.
    pub struct_type: Option<MapType>,
    /// `+patchStrategy`.
    pub patch_strategy: Option<String>,
    /// `+patchMergeKey`.
    pub patch_merge_key: Option<String>,
    /// `+k8s:openapi-gen`.
    pub openapi: OpenApiAttrs,
    /// `+k8s:conversion-gen=false`.
    pub conversion_opt_out: bool,
    /// `+unionDiscriminator`.
    pub union_discriminator: bool,
    /// `+unionDeprecated`.
    pub union_deprecated: bool,
    /// kube-openapi value validations and CEL rules, as schema keys.
    pub validations: Map<String, Value>,
    /// validation-gen's rules (`+k8s:minimum=0`, `+k8s:eachVal=...`).
    pub declarative: Vec<super::declarative::Validation>,
    /// `+protobuf=<number>`: the field's protobuf field number.
    pub protobuf: Option<u32>,
    /// `+k8s:zeroIsUnset`: an `Option` of a scalar that Go holds as a value, not a pointer. Go
    /// writes it to protobuf even when zero, and its zero means unset, so a zero read is `None`.
    pub zero_is_unset: bool,
}

impl FieldAttrs {
    /// Reads the typed values of checked field tags.
    pub fn from_tags(tags: &Tags) -> Self {
        let text = |name: &str| tags.value(name).map(str::to_string);
        FieldAttrs {
            default: tags.value(tag::DEFAULT).and_then(|v| serde_json::from_str(v).ok()),
            default_text: tags.value(tag::DEFAULT).map(str::to_string),
            list_type: tags.value(tag::LIST_TYPE).and_then(ListType::parse),
            list_map_keys: tags.all(tag::LIST_MAP_KEY).filter_map(|t| t.value.clone()).collect(),
            map_type: tags.value(tag::MAP_TYPE).and_then(MapType::parse),
            struct_type: tags.value(tag::STRUCT_TYPE).and_then(MapType::parse),
            patch_strategy: text(tag::PATCH_STRATEGY),
            patch_merge_key: text(tag::PATCH_MERGE_KEY),
            openapi: OpenApiAttrs::from_tags(tags),
            conversion_opt_out: tags.value(tag::CONVERSION) == Some("false"),
            union_discriminator: tags.has(tag::UNION_DISCRIMINATOR),
            union_deprecated: tags.has(tag::UNION_DEPRECATED),
            validations: validation::schema(tags),
            declarative: super::declarative::of(tags),
            protobuf: tags.value(tag::PROTOBUF).and_then(|v| v.parse().ok()),
            zero_is_unset: tags.has(tag::ZERO_IS_UNSET),
        }
    }

    /// Whether the field is left out of OpenAPI (`+k8s:openapi-gen=false`).
    pub fn openapi_opt_out(&self) -> bool {
        self.openapi.enabled == Some(false)
    }
}
