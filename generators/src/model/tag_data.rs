//! The model's tag data, shared by the modules that check tags (`tags`), parse validation-gen's
//! rules (`declarative`) and read both (`attrs`, `kind`, `validation`): a checked [`Tag`] and
//! the [`Tags`] of an item, and the typed rules of declarative validation. Types only, so that
//! the modules with the logic depend on it and not on each other.

use crate::diag::SourceLoc;
use crate::parse::tags::{RawTag, TagArg};

/// Every validator name validation-gen knows, after `k8s:`.
pub const VALIDATORS: &[&str] = &[
    "optional",
    "required",
    "forbidden",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "maxBytes",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "format",
    "enum",
    "enumExclude",
    "immutable",
    "update",
    "monotonic",
    "neq",
    "listType",
    "listMapKey",
    "unique",
    "customUnique",
    "item",
    "eachKey",
    "eachVal",
    "subfield",
    "unionDiscriminator",
    "unionMember",
    "discriminator",
    "member",
    "modeDiscriminator",
    "ifMode",
    "zeroOrOneOfMember",
    "dependentRequired",
    "dependentForbidden",
    "opaqueType",
    "ifEnabled",
    "ifDisabled",
    "alpha",
    "beta",
];

/// The string formats of `+k8s:format`, as apimachinery's `validate` package names them
/// (`k8s-ip` is documented upstream but not implemented, so it is refused there too).
pub const FORMATS: &[&str] = &[
    "k8s-short-name",
    "k8s-long-name",
    "k8s-long-name-caseless",
    "k8s-label-key",
    "k8s-prefixed-label-key",
    "k8s-label-value",
    "k8s-uuid",
    "k8s-path-segment-name",
    "k8s-resource-pool-name",
    "k8s-resource-fully-qualified-name",
    "k8s-extended-resource-name",
];

/// One rule of declarative validation, where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Validation {
    /// What it checks.
    pub rule: Rule,
    /// The tag that states it.
    pub loc: SourceLoc,
}

/// A literal value in a rule: `+k8s:neq="x"`, `+k8s:item(type: "Ready")`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    /// A string.
    String(String),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

/// How a list's items relate (`+k8s:listType`, `+k8s:unique`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListKind {
    /// Replaced whole; items may repeat.
    Atomic,
    /// Items are unique values.
    Set,
    /// Items are unique by their `listMapKey`s.
    Map,
}

/// The changes `+k8s:update` forbids, named as validation-gen's values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[allow(clippy::enum_variant_names)]
pub enum UpdateRule {
    /// An unset value may not be set.
    NoSet,
    /// A set value may not be cleared.
    NoUnset,
    /// A set value may not change to another set value.
    NoModify,
    /// A list or map may not gain items.
    NoAddItem,
    /// A list or map may not lose items.
    NoRemoveItem,
}

/// Stability of a rule (`+k8s:alpha`, `+k8s:beta`): its errors are marked so, and a server may
/// report them without rejecting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// `+k8s:alpha`.
    Alpha,
    /// `+k8s:beta`.
    Beta,
}

/// What one validation-gen tag checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The value may be absent; when absent nothing else is checked.
    Optional,
    /// The value must be present.
    Required,
    /// The value must be absent.
    Forbidden,
    /// A number at least this.
    Minimum(i64),
    /// A number at most this.
    Maximum(i64),
    /// A string of at least this many characters.
    MinLength(u64),
    /// A string of at most this many characters.
    MaxLength(u64),
    /// A string of at most this many bytes.
    MaxBytes(u64),
    /// A list of at least this many items.
    MinItems(u64),
    /// A list of at most this many items.
    MaxItems(u64),
    /// A map of at least this many entries.
    MinProperties(u64),
    /// A map of at most this many entries.
    MaxProperties(u64),
    /// A string in one of [`FORMATS`].
    Format(String),
    /// A string enum: one of its type's values.
    Enum,
    /// This enum value is not accepted (`+k8s:enumExclude` on a variant).
    EnumExclude,
    /// Never changes once set.
    Immutable,
    /// The changes an update may not make.
    Update(Vec<UpdateRule>),
    /// A number or string that never decreases.
    Monotonic,
    /// Not equal to this value.
    Neq(Literal),
    /// How the list's items relate.
    ListType(ListKind),
    /// A key of a `listType=map` list (its JSON name).
    ListMapKey(String),
    /// Items unique as a set or by map keys, without the list's merge semantics.
    Unique(ListKind),
    /// Uniqueness is checked by hand-written code.
    CustomUnique,
    /// A rule for the list item whose fields have these values.
    Item {
        /// (JSON field name, value) pairs the item matches.
        criteria: Vec<(String, Literal)>,
        /// The rule for that item.
        then: Box<Validation>,
    },
    /// A rule for every key of a map.
    EachKey(Box<Validation>),
    /// A rule for every item of a list or value of a map.
    EachVal(Box<Validation>),
    /// A rule for one field of the struct (its JSON name).
    Subfield {
        /// The field's JSON name.
        name: String,
        /// The rule for it.
        then: Box<Validation>,
    },
    /// The field that says which member of a union is set.
    UnionDiscriminator {
        /// The union's name (empty: the type's one union).
        union: String,
    },
    /// A member of a union: exactly one member is set.
    UnionMember {
        /// The union's name (empty: the type's one union).
        union: String,
        /// The member's name in the discriminator (default: its JSON name, capitalized).
        member: Option<String>,
    },
    /// A member of a union of which at most one is set.
    ZeroOrOneOfMember {
        /// The union's name.
        union: String,
    },
    /// The field whose value selects the `+k8s:member` rules of its siblings.
    Discriminator {
        /// The discriminator's name (empty: the type's one).
        name: String,
    },
    /// A rule that applies when the discriminator has this value.
    Member {
        /// The discriminator's name.
        discriminator: String,
        /// The discriminator's value.
        value: String,
        /// The rule.
        then: Box<Validation>,
    },
    /// When this field is set, these sibling fields must be (JSON names).
    DependentRequired(Vec<String>),
    /// When this field is set, these sibling fields must not be.
    DependentForbidden(Vec<String>),
    /// The field's type's own validation is not run.
    OpaqueType,
    /// A rule that applies only while the feature gate is on.
    IfEnabled {
        /// The gate.
        gate: String,
        /// The rule.
        then: Box<Validation>,
    },
    /// A rule that applies only while the feature gate is off.
    IfDisabled {
        /// The gate.
        gate: String,
        /// The rule.
        then: Box<Validation>,
    },
    /// A rule at a stability level.
    Stability {
        /// Alpha or beta.
        level: Level,
        /// The release it was introduced in, as written.
        since: Option<String>,
        /// The rule.
        then: Box<Validation>,
    },
}

impl Validation {
    /// The rule under every condition and stability wrapper.
    pub fn inner(&self) -> &Validation {
        match &self.rule {
            Rule::IfEnabled { then, .. } | Rule::IfDisabled { then, .. } | Rule::Stability { then, .. } => then.inner(),
            _ => self,
        }
    }
}

/// A checked tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// Name without `+`.
    pub name: String,
    /// Arguments in parentheses, for validation-gen's tags (`+k8s:ifEnabled("Gate")`).
    pub args: Vec<TagArg>,
    /// Value after `=`, if any.
    pub value: Option<String>,
    /// The tag the value is, for validation-gen's chained tags (`+k8s:eachVal=+k8s:minimum=1`).
    pub chained: Option<Box<Tag>>,
    /// A validation-gen tag's rule, parsed when the tag is checked.
    pub validation: Option<Validation>,
    /// Where it is written.
    pub loc: SourceLoc,
}

impl Tag {
    /// A plain tag: no arguments, no chain.
    #[cfg(test)]
    pub fn new(name: impl Into<String>, value: Option<String>, loc: SourceLoc) -> Tag {
        Tag {
            name: name.into(),
            args: Vec::new(),
            value,
            chained: None,
            validation: None,
            loc,
        }
    }

    /// A tag as parsed, chain included.
    pub(super) fn from_raw(raw: &RawTag) -> Tag {
        Tag {
            name: raw.name.clone(),
            args: raw.args.clone(),
            value: raw.value.clone(),
            chained: raw.chained.as_deref().map(|c| Box::new(Tag::from_raw(c))),
            validation: None,
            loc: raw.loc.clone(),
        }
    }

    /// The tag as written, for messages: `+name(args)=value`.
    pub fn display(&self) -> String {
        let args = if self.args.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = self
                .args
                .iter()
                .map(|a| match (&a.name, &a.value) {
                    (Some(n), v) => format!("{n}: {}", arg_text(v)),
                    (None, v) => arg_text(v),
                })
                .collect();
            format!("({})", list.join(", "))
        };
        match &self.value {
            Some(v) => format!("+{}{args}={v}", self.name),
            None => format!("+{}{args}", self.name),
        }
    }
}

/// An argument as it would be written.
fn arg_text(v: &crate::parse::tags::ArgValue) -> String {
    match v {
        crate::parse::tags::ArgValue::String(s) => format!("{s:?}"),
        other => other.text(),
    }
}

/// The checked tags of one package, type or field, in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags(pub Vec<Tag>);

impl Tags {
    /// The first tag of that name.
    pub fn get(&self, name: &str) -> Option<&Tag> {
        self.0.iter().find(|t| t.name == name)
    }

    /// The value of the first tag of that name (`Some("")` for a flag).
    pub fn value(&self, name: &str) -> Option<&str> {
        self.get(name).map(|t| t.value.as_deref().unwrap_or(""))
    }

    /// Whether a tag of that name is present.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Where the first tag of that name is written, or `otherwise` when it is absent.
    pub fn loc(&self, name: &str, otherwise: &SourceLoc) -> SourceLoc {
        self.get(name).map_or_else(|| otherwise.clone(), |t| t.loc.clone())
    }

    /// Every tag of that name.
    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Tag> + 'a {
        self.0.iter().filter(move |t| t.name == name)
    }
}
