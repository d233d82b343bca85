//! Reads the serde attributes that decide JSON names, optionality and inlining, exactly as
//! serde_derive reads them: `rename` and `rename_all` (the serialize side when split, with
//! serde's own rename rules), `rename_all_fields`, `alias`, `transparent`, `flatten`, `default`,
//! `skip*`. An unknown `rename_all` rule is reported where it is written, as serde reports it.

use proc_macro2::Span;

/// serde_derive's rename rules (`internals/case.rs`), applied the same way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RenameRule {
    /// No rule: names as written.
    #[default]
    None,
    /// `lowercase`.
    LowerCase,
    /// `UPPERCASE`.
    UpperCase,
    /// `PascalCase`.
    PascalCase,
    /// `camelCase`.
    CamelCase,
    /// `snake_case`.
    SnakeCase,
    /// `SCREAMING_SNAKE_CASE`.
    ScreamingSnakeCase,
    /// `kebab-case`.
    KebabCase,
    /// `SCREAMING-KEBAB-CASE`.
    ScreamingKebabCase,
}

/// The rules by the names serde accepts.
pub const RENAME_RULES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::LowerCase),
    ("UPPERCASE", RenameRule::UpperCase),
    ("PascalCase", RenameRule::PascalCase),
    ("camelCase", RenameRule::CamelCase),
    ("snake_case", RenameRule::SnakeCase),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnakeCase),
    ("kebab-case", RenameRule::KebabCase),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebabCase),
];

impl RenameRule {
    fn parse(s: &str) -> Option<Self> {
        RENAME_RULES.iter().find(|(n, _)| *n == s).map(|(_, r)| *r)
    }

    /// A variant's name under the rule, as serde computes it (`HTTPGet` in camelCase is `hTTPGet`).
    pub fn apply_to_variant(self, variant: &str) -> String {
        use RenameRule::*;
        match self {
            None | PascalCase => variant.to_owned(),
            LowerCase => variant.to_ascii_lowercase(),
            UpperCase => variant.to_ascii_uppercase(),
            CamelCase => {
                let mut c = variant.chars();
                c.next()
                    .map_or_else(String::new, |f| f.to_ascii_lowercase().to_string() + c.as_str())
            }
            SnakeCase => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                snake
            }
            ScreamingSnakeCase => SnakeCase.apply_to_variant(variant).to_ascii_uppercase(),
            KebabCase => SnakeCase.apply_to_variant(variant).replace('_', "-"),
            ScreamingKebabCase => ScreamingSnakeCase.apply_to_variant(variant).replace('_', "-"),
        }
    }

    /// A field's name under the rule, as serde computes it (`host_ip` in camelCase is `hostIp`).
    pub fn apply_to_field(self, field: &str) -> String {
        use RenameRule::*;
        match self {
            None | LowerCase | SnakeCase => field.to_owned(),
            UpperCase | ScreamingSnakeCase => field.to_ascii_uppercase(),
            PascalCase => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            CamelCase => {
                let pascal = PascalCase.apply_to_field(field);
                let mut c = pascal.chars();
                c.next()
                    .map_or_else(String::new, |f| f.to_ascii_lowercase().to_string() + c.as_str())
            }
            KebabCase => field.replace('_', "-"),
            ScreamingKebabCase => field.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

/// A serde attribute value serde itself would refuse, with where it is.
#[derive(Clone, Debug)]
pub struct SerdeError {
    /// Where the value is.
    pub span: Span,
    /// What is wrong.
    pub message: String,
}

/// Container-level serde settings of a struct or enum.
#[derive(Clone, Debug, Default)]
pub struct SerdeContainer {
    /// `rename_all` (the serialize side when given separately): for struct fields, or for the
    /// variants of an enum.
    pub rename_all: RenameRule,
    /// `rename_all_fields`: for the fields of an enum's struct variants.
    pub rename_all_fields: RenameRule,
    /// `#[serde(default)]` on the container makes every field optional on input.
    pub default: bool,
    /// `transparent`: serialized as its single field.
    pub transparent: bool,
    /// Whether any serde attribute or derive is present (internal types have none).
    pub present: bool,
    /// Values serde would refuse.
    pub errors: Vec<SerdeError>,
}

/// Field- (or variant-) level serde settings.
#[derive(Clone, Debug, Default)]
pub struct SerdeField {
    /// `rename = "..."`, or its serialize side.
    pub rename: Option<String>,
    /// The deserialize side of `rename(deserialize = "...")` and every `alias`: other names
    /// accepted on input.
    pub aliases: Vec<String>,
    /// `rename_all` on a struct variant, for its fields.
    pub rename_all: Option<RenameRule>,
    /// `flatten`: the field's properties are inlined into the parent object.
    pub flatten: bool,
    /// `default` or `default = "path"`: absent input gives the default.
    pub default: bool,
    /// `skip` / `skip_serializing` together with `skip_deserializing`: never on the wire.
    pub skip: bool,
    /// `skip_serializing_if = "..."`: omitted when empty (Go's omitempty).
    pub skip_serializing_if: Option<String>,
    /// Values serde would refuse.
    pub errors: Vec<SerdeError>,
}

/// Reads `#[serde(...)]` on a container, and whether it derives Serialize or Deserialize.
pub fn container(attrs: &[syn::Attribute]) -> SerdeContainer {
    let mut out = SerdeContainer::default();
    for attr in attrs {
        if attr.path().is_ident("derive") {
            let text = quote::ToTokens::to_token_stream(&attr.meta).to_string();
            if text.contains("Serialize") || text.contains("Deserialize") {
                out.present = true;
            }
        }
        if !attr.path().is_ident("serde") {
            continue;
        }
        out.present = true;
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename_all") {
                if let Some((v, span)) = sides(&meta)?.0 {
                    out.rename_all = rule(&v, span, &mut out.errors);
                }
            } else if meta.path.is_ident("rename_all_fields") {
                if let Some((v, span)) = sides(&meta)?.0 {
                    out.rename_all_fields = rule(&v, span, &mut out.errors);
                }
            } else if meta.path.is_ident("default") {
                out.default = true;
                skip_value(&meta)?;
            } else if meta.path.is_ident("transparent") {
                out.transparent = true;
            } else {
                skip_value(&meta)?;
            }
            Ok(())
        });
    }
    out
}

fn rule(v: &str, span: Span, errors: &mut Vec<SerdeError>) -> RenameRule {
    RenameRule::parse(v).unwrap_or_else(|| {
        let names: Vec<String> = RENAME_RULES.iter().map(|(n, _)| format!("{n:?}")).collect();
        errors.push(SerdeError {
            span,
            message: format!(
                "unknown rename rule `rename_all = {v:?}`, expected one of {}",
                names.join(", ")
            ),
        });
        RenameRule::None
    })
}

/// Reads `#[serde(...)]` on a field or variant.
pub fn field(attrs: &[syn::Attribute]) -> SerdeField {
    let mut out = SerdeField::default();
    let (mut skip_ser, mut skip_de) = (false, false);
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            let p = &meta.path;
            if p.is_ident("rename") {
                let (ser, de) = sides(&meta)?;
                if let Some((v, _)) = ser {
                    out.rename = Some(v);
                }
                out.aliases.extend(de.map(|(v, _)| v));
            } else if p.is_ident("alias") {
                out.aliases.push(meta.value()?.parse::<syn::LitStr>()?.value());
            } else if p.is_ident("rename_all") {
                if let Some((v, span)) = sides(&meta)?.0 {
                    out.rename_all = Some(rule(&v, span, &mut out.errors));
                }
            } else if p.is_ident("flatten") {
                out.flatten = true;
            } else if p.is_ident("default") {
                out.default = true;
                skip_value(&meta)?;
            } else if p.is_ident("skip") {
                out.skip = true;
            } else if p.is_ident("skip_serializing") {
                skip_ser = true;
            } else if p.is_ident("skip_deserializing") {
                skip_de = true;
            } else if p.is_ident("skip_serializing_if") {
                out.skip_serializing_if = Some(meta.value()?.parse::<syn::LitStr>()?.value());
            } else {
                skip_value(&meta)?;
            }
            Ok(())
        });
    }
    out.skip |= skip_ser && skip_de;
    out
}

/// The two sides of `key = "v"` (both) or `key(serialize = "a", deserialize = "b")`.
type Sides = (Option<(String, Span)>, Option<(String, Span)>);

fn sides(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<Sides> {
    if meta.input.peek(syn::Token![=]) {
        let lit = meta.value()?.parse::<syn::LitStr>()?;
        let v = (lit.value(), lit.span());
        return Ok((Some(v.clone()), Some(v)));
    }
    let (mut ser, mut de) = (None, None);
    meta.parse_nested_meta(|inner| {
        let lit = inner.value()?.parse::<syn::LitStr>()?;
        if inner.path.is_ident("serialize") {
            ser = Some((lit.value(), lit.span()));
        } else if inner.path.is_ident("deserialize") {
            de = Some((lit.value(), lit.span()));
        }
        Ok(())
    })?;
    Ok((ser, de))
}

/// Consumes `= value` or `(...)` after a serde key we do not interpret.
fn skip_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_of(src: &str) -> SerdeField {
        let s: syn::ItemStruct = syn::parse_str(src).unwrap();
        let syn::Fields::Named(f) = s.fields else { panic!() };
        field(&f.named[0].attrs)
    }

    #[test]
    fn reads_field_attributes() {
        let f = field_of(
            r#"struct A { #[serde(rename = "hostIP", default, skip_serializing_if = "Option::is_none")] x: u8 }"#,
        );
        assert_eq!(f.rename.as_deref(), Some("hostIP"));
        assert!(f.default && !f.flatten && !f.skip);
        assert_eq!(f.skip_serializing_if.as_deref(), Some("Option::is_none"));
        assert!(field_of("struct A { #[serde(flatten, default)] x: u8 }").flatten);
        assert!(field_of("struct A { #[serde(skip)] x: u8 }").skip);
        assert!(field_of(r#"struct A { #[serde(default = "d", with = "m")] x: u8 }"#).default);
        let split =
            field_of(r#"struct A { #[serde(rename(serialize = "out", deserialize = "in"), alias = "old")] x: u8 }"#);
        assert_eq!(split.rename.as_deref(), Some("out"));
        assert_eq!(split.aliases, ["in", "old"]);
    }

    #[test]
    fn reads_container_attributes() {
        let s: syn::ItemStruct = syn::parse_str(
            r#"#[derive(Serialize)] #[serde(rename_all = "camelCase", deny_unknown_fields, transparent)] struct A;"#,
        )
        .unwrap();
        let c = container(&s.attrs);
        assert_eq!(c.rename_all, RenameRule::CamelCase);
        assert!(c.present && c.transparent && c.errors.is_empty());
        let s: syn::ItemStruct = syn::parse_str(r#"#[serde(rename_all = "camel")] struct A;"#).unwrap();
        let c = container(&s.attrs);
        assert_eq!(
            c.errors[0].message,
            "unknown rename rule `rename_all = \"camel\"`, expected one of \"lowercase\", \"UPPERCASE\", \"PascalCase\", \"camelCase\", \"snake_case\", \"SCREAMING_SNAKE_CASE\", \"kebab-case\", \"SCREAMING-KEBAB-CASE\""
        );
        let s: syn::ItemStruct = syn::parse_str("#[derive(Debug)] struct A;").unwrap();
        assert!(!container(&s.attrs).present);
    }

    #[test]
    fn rules_are_serdes() {
        use RenameRule::*;
        assert_eq!(CamelCase.apply_to_field("host_ip"), "hostIp");
        assert_eq!(CamelCase.apply_to_field("type_"), "type");
        assert_eq!(CamelCase.apply_to_variant("HTTPGet"), "hTTPGet");
        assert_eq!(SnakeCase.apply_to_variant("HTTPGet"), "h_t_t_p_get");
        assert_eq!(PascalCase.apply_to_field("a1_b"), "A1B");
        assert_eq!(ScreamingKebabCase.apply_to_variant("TcpSocket"), "TCP-SOCKET");
        assert_eq!(None.apply_to_field("replicas"), "replicas");
    }
}
