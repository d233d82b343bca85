//! The tag table: every tag of our namespaces, where it may appear and what values it takes.
//! Raw tags from the parse layer are checked here; what passes is kept in `Tags`.
//!
//! A tag is in our namespace when its name starts with `k8s:` or `genclient`, is in the table, or
//! is a near miss of a name in the table (a typo such as `+optinal`). Tags of other tools
//! (`+kubebuilder:...`, `+protobuf`) are left alone.

pub(super) use super::tag_values::Value;
use super::tag_values::check_value;
pub use super::tag_values::{is_dns_label, key_values};
use super::verb::Verb;
use crate::diag::{Diagnostic, Diagnostics};
use crate::parse::tags::RawTag;

pub use super::tag_data::{Tag, Tags};

pub use super::tag_names as name;

/// Where a tag is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// `//!` at the top of a package's `mod.rs`.
    Package,
    /// `///` on a struct or enum.
    Type,
    /// `///` on a field.
    Field,
}

impl Place {
    fn describe(self) -> &'static str {
        match self {
            Place::Package => "a package (a `//!` line at the top of the package's mod.rs)",
            Place::Type => "a type (a `///` line on the struct or enum)",
            Place::Field => "a field (a `///` line on the field)",
        }
    }
}

const BOOL: &[&str] = &["true", "false"];
const ATOMIC_GRANULAR: &[&str] = &["atomic", "granular"];

/// One row of the tag table: the value each place takes (`None`: not allowed there).
struct Spec {
    name: &'static str,
    package: Option<Value>,
    ty: Option<Value>,
    field: Option<Value>,
    repeat: bool,
}

const fn spec(
    name: &'static str,
    package: Option<Value>,
    ty: Option<Value>,
    field: Option<Value>,
    repeat: bool,
) -> Spec {
    Spec {
        name,
        package,
        ty,
        field,
        repeat,
    }
}

use Value::*;
use name as n;

static TABLE: &[Spec] = &[
    spec(n::GROUP_NAME, Some(Group), None, None, false),
    spec(n::GROUP_GO_NAME, Some(Ident), None, None, false),
    spec(
        n::DEEPCOPY,
        Some(OneOf(&["package", "false"])),
        Some(OneOf(BOOL)),
        None,
        false,
    ),
    spec(n::DEEPCOPY_INTERFACES, None, Some(PathsOrFalse), None, true),
    spec(n::REGISTER, Some(OneOf(BOOL)), None, None, false),
    spec(
        n::CONVERSION,
        Some(PathsOrFalse),
        Some(OneOf(&["false"])),
        Some(OneOf(&["false"])),
        true,
    ),
    spec(n::CONVERSION_EXTERNAL_TYPES, Some(Path), None, None, false),
    spec(
        n::CONVERSION_EXPLICIT_FROM,
        None,
        Some(OneOf(&[super::known::URL_VALUES])),
        None,
        false,
    ),
    spec(n::DEFAULTER, Some(Ident), Some(OneOf(BOOL)), None, false),
    spec(n::DEFAULTER_INPUT, Some(Path), None, None, false),
    spec(n::OPENAPI, Some(OneOf(BOOL)), Some(OpenApi), Some(OpenApi), true),
    spec(n::OPENAPI_MODEL_PACKAGE, Some(Text), None, None, false),
    spec(n::LIFECYCLE, Some(OneOf(BOOL)), None, None, false),
    spec(n::LIFECYCLE_INTRODUCED, None, Some(Version), None, false),
    spec(n::LIFECYCLE_DEPRECATED, None, Some(Version), None, false),
    spec(n::LIFECYCLE_REMOVED, None, Some(Version), None, false),
    spec(n::LIFECYCLE_REPLACEMENT, None, Some(GroupVersionKind), None, false),
    spec(n::GENCLIENT, None, Some(Flag), None, false),
    spec(n::NON_NAMESPACED, None, Some(Flag), None, false),
    spec(n::NO_VERBS, None, Some(Flag), None, false),
    spec(n::NO_STATUS, None, Some(Flag), None, false),
    spec(n::READONLY, None, Some(Flag), None, false),
    spec(n::ONLY_VERBS, None, Some(ListOf(&Verb::NAMES)), None, false),
    spec(n::SKIP_VERBS, None, Some(ListOf(&Verb::NAMES)), None, false),
    spec(n::METHOD, None, Some(Method), None, true),
    spec(n::RESOURCE_NAME, None, Some(Label), None, false),
    spec(n::OPTIONAL, None, None, Some(Flag), false),
    spec(n::REQUIRED, None, None, Some(Flag), false),
    spec(n::DEFAULT, None, None, Some(Json), false),
    spec(
        n::LIST_TYPE,
        None,
        Some(OneOf(&["atomic", "set", "map"])),
        Some(OneOf(&["atomic", "set", "map"])),
        false,
    ),
    spec(n::LIST_MAP_KEY, None, Some(Text), Some(Text), true),
    spec(
        n::MAP_TYPE,
        None,
        Some(OneOf(ATOMIC_GRANULAR)),
        Some(OneOf(ATOMIC_GRANULAR)),
        false,
    ),
    spec(
        n::STRUCT_TYPE,
        None,
        Some(OneOf(ATOMIC_GRANULAR)),
        Some(OneOf(ATOMIC_GRANULAR)),
        false,
    ),
    spec(
        n::PATCH_STRATEGY,
        None,
        None,
        Some(ListOf(&["merge", "retainKeys", "replace"])),
        false,
    ),
    spec(n::PATCH_MERGE_KEY, None, None, Some(Text), false),
    spec(n::ENUM, None, Some(Flag), None, false),
    spec(n::FEATURE_GATE, None, None, Some(Text), true),
    spec(n::NULLABLE, None, None, Some(Flag), false),
    spec(n::ZERO_IS_UNSET, None, None, Some(Flag), false),
    spec(n::UNION, None, Some(Flag), None, false),
    spec(n::UNION_DISCRIMINATOR, None, None, Some(Flag), false),
    spec(n::UNION_DEPRECATED, None, None, Some(Flag), false),
    spec(n::IS_SUBRESOURCE, Some(Subresource), Some(Subresource), None, false),
    spec(n::SUPPORTS_SUBRESOURCE, None, Some(Subresource), None, true),
    spec(n::VALIDATION_GEN, Some(Ident), None, None, false),
    spec(n::VALIDATION_GEN_INPUT, Some(Text), None, None, false),
    spec(n::CRD, Some(OneOf(BOOL)), Some(OneOf(&["false"])), None, false),
    spec(n::CRD_STORAGE_VERSION, None, Some(Flag), None, false),
    spec(n::CRD_STATUS, None, Some(Flag), None, false),
    spec(
        n::CRD_SCALE,
        None,
        Some(KeyValues(
            &["specpath", "statuspath", "selectorpath"],
            &["specpath", "statuspath"],
        )),
        None,
        false,
    ),
    spec(
        n::CRD_PRINT_COLUMN,
        None,
        Some(KeyValues(
            &["name", "type", "jsonPath", "description", "format", "priority"],
            &["name", "type", "jsonPath"],
        )),
        None,
        true,
    ),
    spec(n::CRD_SHORT_NAMES, None, Some(Labels), None, false),
    spec(n::CRD_CATEGORIES, None, Some(Labels), None, false),
    spec(
        n::CRD_WEBHOOK,
        None,
        Some(KeyValues(&["service", "path", "port"], &["service"])),
        None,
        false,
    ),
    spec(n::PROTOBUF_GEN, Some(OneOf(&["package", "false"])), None, None, false),
    spec(n::PROTOBUF, None, Some(OneOf(BOOL)), Some(FieldNumber), false),
    validation("k8s:validation:minimum", "number"),
    validation("k8s:validation:maximum", "number"),
    validation("k8s:validation:multipleOf", "number"),
    validation("k8s:validation:exclusiveMinimum", "bool"),
    validation("k8s:validation:exclusiveMaximum", "bool"),
    validation("k8s:validation:uniqueItems", "bool"),
    validation("k8s:validation:minLength", "count"),
    validation("k8s:validation:maxLength", "count"),
    validation("k8s:validation:minItems", "count"),
    validation("k8s:validation:maxItems", "count"),
    validation("k8s:validation:minProperties", "count"),
    validation("k8s:validation:maxProperties", "count"),
    validation("k8s:validation:pattern", "string"),
    validation("k8s:validation:format", "string"),
    validation("k8s:validation:enum", "array"),
    validation("k8s:validation:cel[]:rule", "string"),
    validation("k8s:validation:cel[]:message", "string"),
    validation("k8s:validation:cel[]:messageExpression", "string"),
    validation("k8s:validation:cel[]:reason", "string"),
    validation("k8s:validation:cel[]:fieldPath", "string"),
    validation("k8s:validation:cel[]:optionalOldSelf", "bool"),
];

/// Whether a name is one of validation-gen's validators (`k8s:minimum`, `k8s:eachVal`, ...), whose
/// arguments, value and chained tag `model::declarative` checks.
pub fn is_declarative(name: &str) -> bool {
    name.strip_prefix("k8s:")
        .is_some_and(|rest| super::declarative::VALIDATORS.contains(&rest))
}

/// A `+k8s:validation:<key>=<json>` tag, on types and fields.
const fn validation(name: &'static str, shape: &'static str) -> Spec {
    spec(name, None, Some(JsonOf(shape)), Some(JsonOf(shape)), false)
}

/// A tag's name as the table spells it: indices dropped (`cel[0]:rule` -> `cel[]:rule`).
pub fn table_name(name: &str) -> std::borrow::Cow<'_, str> {
    if !name.contains('[') {
        return name.into();
    }
    let mut out = String::with_capacity(name.len());
    let mut in_index = false;
    for c in name.chars() {
        match c {
            '[' => {
                in_index = true;
                out.push('[');
            }
            ']' => {
                in_index = false;
                out.push(']');
            }
            _ if in_index => {}
            c => out.push(c),
        }
    }
    out.into()
}

/// Checks raw tags written at `place`; valid ones are returned, the rest reported.
pub fn check(raw: &[RawTag], place: Place, diags: &mut Diagnostics) -> Tags {
    let mut out: Vec<Tag> = Vec::new();
    for tag in raw {
        if is_declarative(&tag.name) {
            // validation-gen's tags go to `model::declarative` whole: what they take depends on
            // the type they are written on and on the tag that wraps them.
            let mut checked = Tag::from_raw(tag);
            let Some(v) = super::declarative::parse(&checked, diags) else {
                continue;
            };
            let (on_type, on_field) = super::declarative::places(&v);
            let fits = match place {
                Place::Package => false,
                Place::Type => on_type,
                Place::Field => on_field,
            };
            if !fits {
                let allowed: Vec<&str> = [
                    on_type.then(|| Place::Type.describe()),
                    on_field.then(|| Place::Field.describe()),
                ]
                .into_iter()
                .flatten()
                .collect();
                diags.push(
                    Diagnostic::error(
                        &tag.loc,
                        format!("tag `{}` cannot be written on {}", checked.display(), place.describe()),
                    )
                    .label("wrong place for this tag")
                    .help(if allowed.is_empty() {
                        "it belongs on an enum variant (a Go constant)".to_string()
                    } else {
                        format!("it belongs on {}", allowed.join(" or "))
                    }),
                );
                continue;
            }
            checked.validation = Some(v);
            out.push(checked);
            continue;
        }
        let key = table_name(&tag.name);
        if !tag.args.is_empty() || tag.chained.is_some() {
            let what = if tag.args.is_empty() {
                "a chained tag as its value"
            } else {
                "arguments"
            };
            diags.push(
                Diagnostic::error(&tag.loc, format!("tag `+{}` takes no {what}", tag.name))
                    .label("written as validation-gen's tags are")
                    .help("only validation-gen's tags (`+k8s:ifEnabled(\"Gate\")=+k8s:optional`) take arguments and chained tags"),
            );
            continue;
        }
        let Some(spec) = TABLE.iter().find(|s| s.name == key) else {
            match unknown(tag) {
                Some(d) => diags.push(d),
                None => diags.note(format!("{}: ignored `+{}`: not a tag of this tool", tag.loc, tag.name)),
            }
            continue;
        };
        let Some(rule) = (match place {
            Place::Package => spec.package,
            Place::Type => spec.ty,
            Place::Field => spec.field,
        }) else {
            diags.push(misplaced(tag, spec, place));
            continue;
        };
        if !spec.repeat
            && let Some(first) = out.iter().find(|t| t.name == tag.name)
        {
            diags.push(
                Diagnostic::error(&tag.loc, format!("duplicate tag `+{}`", tag.name))
                    .label("second occurrence")
                    .related(&first.loc, "first written here")
                    .help("keep one of them"),
            );
            continue;
        }
        match check_value(rule, tag.value.as_deref()) {
            Ok(()) => out.push(Tag::from_raw(tag)),
            Err(expected) => {
                let mut d = Diagnostic::error(&tag.loc, format!("malformed value in tag `{}`", tag.display()))
                    .label(format!("expected {expected}"));
                if matches!(rule, Flag) {
                    d = d.help(format!("write `+{}`", tag.name));
                }
                diags.push(d);
            }
        }
    }
    Tags(out)
}

/// Whether a tag name belongs to our namespaces (known, `k8s:`/`genclient` prefixed, or a typo of a
/// known name).
pub fn in_our_namespace(name: &str) -> bool {
    if foreign(name) {
        return false;
    }
    TABLE.iter().any(|s| s.name == table_name(name))
        || name.starts_with("k8s:")
        || name.starts_with("genclient")
        || suggest(name).is_some()
}

/// Tags in the `+k8s:` namespace that belong to Kubernetes' other tools, known and ignored:
/// Kubernetes' reserved field numbers (`+k8s:deprecated=podIP,protobuf=7`), and go-to-protobuf's
/// Go-only options (`+protobuf.nullable`, `+protobuf.options.*`, `+protobuf.as`), which say how Go
/// types map to gogo-protobuf and mean nothing for Rust types.
const FOREIGN: &[&str] = &["k8s:deprecated"];

/// Whether a tag belongs to another tool (see [`FOREIGN`]).
fn foreign(name: &str) -> bool {
    FOREIGN.contains(&name) || name.starts_with("protobuf.")
}

/// The error for a tag that is not in the table, if the tag is in our namespace.
fn unknown(tag: &RawTag) -> Option<Diagnostic> {
    if foreign(&tag.name) {
        return None;
    }
    let suggestion = suggest(&tag.name);
    let ours = tag.name.starts_with("k8s:") || tag.name.starts_with("genclient") || suggestion.is_some();
    if !ours {
        return None;
    }
    let mut d = Diagnostic::error(&tag.loc, format!("unknown tag `+{}`", tag.name)).label("not a tag this tool knows");
    d = match suggestion {
        Some(s) => d.help(format!("did you mean `+{s}`?")),
        None => d.help("see the tag table in README.md, section \"Packages and tags\""),
    };
    Some(d)
}

/// The closest known tag name, when it is close enough to be a typo.
pub fn suggest(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    let limit = (name.len() / 3).clamp(1, 3);
    TABLE
        .iter()
        .map(|s| (levenshtein(&lower, &s.name.to_ascii_lowercase()), s.name))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, n)| n)
}

fn misplaced(tag: &RawTag, spec: &Spec, place: Place) -> Diagnostic {
    let allowed: Vec<&str> = [
        spec.package.map(|_| Place::Package.describe()),
        spec.ty.map(|_| Place::Type.describe()),
        spec.field.map(|_| Place::Field.describe()),
    ]
    .into_iter()
    .flatten()
    .collect();
    Diagnostic::error(
        &tag.loc,
        format!("tag `+{}` cannot be written on {}", tag.name, place.describe()),
    )
    .label("wrong place for this tag")
    .help(format!("it belongs on {}", allowed.join(" or ")))
}

/// Edit distance, for "did you mean".
fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            cur.push((prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceLoc;

    fn raw(name: &str, value: Option<&str>) -> RawTag {
        let loc = SourceLoc {
            file: "t.rs".into(),
            line: 1,
            col: 1,
            len: 1,
        };
        RawTag::plain(name, value.map(Into::into), loc)
    }

    fn run(tags: &[RawTag], place: Place) -> (Tags, Vec<String>) {
        let mut d = Diagnostics::new();
        let t = check(tags, place, &mut d);
        (
            t,
            d.into_vec()
                .into_iter()
                .map(|e| format!("{} / {} / {:?}", e.message, e.label, e.help))
                .collect(),
        )
    }

    #[test]
    fn accepts_known_tags() {
        let (t, e) = run(
            &[raw("groupName", Some("")), raw("k8s:deepcopy-gen", Some("package"))],
            Place::Package,
        );
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(t.value("groupName"), Some(""));
        let (_, e) = run(
            &[raw(
                "genclient:method",
                Some("GetScale,verb=get,subresource=scale,result=crate::autoscaling::v1::Scale"),
            )],
            Place::Type,
        );
        assert!(e.is_empty(), "{e:?}");
    }

    #[test]
    fn rejects_bad_values_and_places() {
        let (_, e) = run(&[raw("k8s:deepcopy-gen", Some("maybe"))], Place::Package);
        assert_eq!(
            e,
            ["malformed value in tag `+k8s:deepcopy-gen=maybe` / expected one of: package|false / []"]
        );
        let (_, e) = run(&[raw("groupName", Some("apps"))], Place::Type);
        assert!(
            e[0].starts_with("tag `+groupName` cannot be written on a type"),
            "{e:?}"
        );
        let (_, e) = run(&[raw("optional", Some("true"))], Place::Field);
        assert!(e[0].contains("expected no value"), "{e:?}");
        let (_, e) = run(&[raw("groupName", Some("Apps_"))], Place::Package);
        assert!(e[0].contains("DNS subdomain"));
    }

    #[test]
    fn unknown_tags_in_our_namespace_get_suggestions() {
        let (_, e) = run(&[raw("optinal", None)], Place::Field);
        assert_eq!(
            e,
            ["unknown tag `+optinal` / not a tag this tool knows / [\"did you mean `+optional`?\"]"]
        );
        let (_, e) = run(
            &[raw("k8s:deepcopy-gen:interface", Some("runtime::Object"))],
            Place::Type,
        );
        assert!(e[0].contains("did you mean `+k8s:deepcopy-gen:interfaces`?"), "{e:?}");
        let (_, e) = run(&[raw("kubebuilder:validation:Minimum", Some("1"))], Place::Field);
        assert!(e.is_empty());
    }

    #[test]
    fn duplicates_are_errors_unless_repeatable() {
        let (_, e) = run(&[raw("genclient", None), raw("genclient", None)], Place::Type);
        assert_eq!(e.len(), 1);
        let (t, e) = run(
            &[raw("listMapKey", Some("a")), raw("listMapKey", Some("b"))],
            Place::Field,
        );
        assert!(e.is_empty());
        assert_eq!(t.all("listMapKey").count(), 2);
    }
}
