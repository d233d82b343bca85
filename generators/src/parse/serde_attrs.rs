//! Reads the serde attributes that decide a field's JSON name, optionality and inlining:
//! `rename`, `rename_all`, `flatten`, `default`, `skip`, `skip_serializing_if`.

use heck::{ToKebabCase, ToLowerCamelCase, ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};

/// Container-level serde settings of a struct or enum.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SerdeContainer {
    /// `rename_all = "..."` (the serialize side when given separately).
    pub rename_all: Option<String>,
    /// `#[serde(default)]` on the container makes every field optional on input.
    pub default: bool,
    /// Whether any serde attribute or derive is present (internal types have none).
    pub present: bool,
}

/// Field-level serde settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SerdeField {
    /// `rename = "..."`.
    pub rename: Option<String>,
    /// `flatten`: the field's properties are inlined into the parent object.
    pub flatten: bool,
    /// `default` or `default = "path"`: absent input gives the default.
    pub default: bool,
    /// `skip` / `skip_serializing` together with `skip_deserializing`: never on the wire.
    pub skip: bool,
    /// `skip_serializing_if = "..."`: omitted when empty (Go's omitempty).
    pub skip_serializing_if: Option<String>,
}

/// Reads `#[serde(...)]` on a container, and whether it derives Serialize or Deserialize.
pub fn container(attrs: &[syn::Attribute]) -> SerdeContainer {
    let mut out = SerdeContainer::default();
    for attr in attrs {
        if attr.path().is_ident("derive") {
            let text = attr.meta.to_token_stream_string();
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
                out.rename_all = serialize_side(&meta)?.or(out.rename_all.take());
            } else if meta.path.is_ident("default") {
                out.default = true;
                skip_value(&meta)?;
            } else {
                skip_value(&meta)?;
            }
            Ok(())
        });
    }
    out
}

/// Reads `#[serde(...)]` on a field.
pub fn field(attrs: &[syn::Attribute]) -> SerdeField {
    let mut out = SerdeField::default();
    let (mut skip_ser, mut skip_de) = (false, false);
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            let p = &meta.path;
            if p.is_ident("rename") {
                out.rename = serialize_side(&meta)?.or(out.rename.take());
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

/// The value of `key = "v"`, or the `serialize = "v"` half of `key(serialize = "v", ...)`: the
/// JSON name is the one written on the wire.
fn serialize_side(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<Option<String>> {
    if meta.input.peek(syn::Token![=]) {
        return Ok(Some(meta.value()?.parse::<syn::LitStr>()?.value()));
    }
    let mut out = None;
    meta.parse_nested_meta(|inner| {
        let v = inner.value()?.parse::<syn::LitStr>()?.value();
        if inner.path.is_ident("serialize") {
            out = Some(v);
        }
        Ok(())
    })?;
    Ok(out)
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

/// Applies a serde `rename_all` rule to a Rust field name, as serde does.
pub fn apply_rename_all(rule: Option<&str>, name: &str) -> String {
    match rule {
        Some("camelCase") => name.to_lower_camel_case(),
        Some("PascalCase") => name.to_upper_camel_case(),
        Some("snake_case") => name.to_snake_case(),
        Some("SCREAMING_SNAKE_CASE") => name.to_shouty_snake_case(),
        Some("kebab-case") => name.to_kebab_case(),
        Some("lowercase") => name.to_lowercase(),
        Some("UPPERCASE") => name.to_uppercase(),
        _ => name.to_string(),
    }
}

/// Token text of an attribute's meta, for cheap derive checks.
trait MetaText {
    fn to_token_stream_string(&self) -> String;
}

impl MetaText for syn::Meta {
    fn to_token_stream_string(&self) -> String {
        quote::ToTokens::to_token_stream(self).to_string()
    }
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
        let split = field_of(r#"struct A { #[serde(rename(serialize = "out", deserialize = "in"))] x: u8 }"#);
        assert_eq!(split.rename.as_deref(), Some("out"));
    }

    #[test]
    fn reads_container_attributes() {
        let s: syn::ItemStruct =
            syn::parse_str(r#"#[derive(Serialize)] #[serde(rename_all = "camelCase", deny_unknown_fields)] struct A;"#)
                .unwrap();
        let c = container(&s.attrs);
        assert_eq!(c.rename_all.as_deref(), Some("camelCase"));
        assert!(c.present);
        let s: syn::ItemStruct = syn::parse_str("#[derive(Debug)] struct A;").unwrap();
        assert!(!container(&s.attrs).present);
    }

    #[test]
    fn rename_rules() {
        assert_eq!(apply_rename_all(Some("camelCase"), "host_ip"), "hostIp");
        assert_eq!(
            apply_rename_all(Some("camelCase"), "termination_grace_period_seconds"),
            "terminationGracePeriodSeconds"
        );
        assert_eq!(apply_rename_all(None, "replicas"), "replicas");
    }
}
