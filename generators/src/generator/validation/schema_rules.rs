//! kube-openapi's value tags (`+k8s:validation:minimum=0`, `maxLength`, `pattern`, `enum`, ...)
//! as run-time checks: the keys a field's OpenAPI schema (and its CRD's) states, checked with the
//! API server's wording for schema errors. CEL rules (`x-kubernetes-validations`) are left to
//! the schema; `format` keys too, which Kubernetes' schemas treat as annotations.

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::{Map, Value};

use super::emit::Emitter;
use super::value;
use crate::diag::SourceLoc;
use crate::model::TypeRef;

impl Emitter<'_, '_> {
    /// The checks of one value's schema keys; `ty` is the type inside any `Option`.
    pub(super) fn schema_rules(&mut self, schema: &Map<String, Value>, ty: &TypeRef, loc: &SourceLoc) -> TokenStream {
        let e = self;
        let rt = e.rt.clone();
        let s = quote! { #rt::validation::schema };
        let mut out = Vec::new();
        let flag = |key: &str| schema.get(key).and_then(Value::as_bool).unwrap_or(false);
        let count = |key: &str| schema.get(key).and_then(Value::as_u64);
        let number = value::is_integer(ty) || value::is_float(ty);
        let (as_f64, shown) = if value::is_integer(ty) {
            (quote! { *v as f64 }, quote! { *v as i64 })
        } else {
            (
                quote! { *v as f64 },
                quote! { #rt::validation::BadValue::Float(*v as f64) },
            )
        };
        // In the order the API server's schema validator checks them: numbers, strings, lists,
        // objects, then `enum`.
        const ORDER: [&str; 12] = [
            "minimum",
            "maximum",
            "multipleOf",
            "maxLength",
            "minLength",
            "pattern",
            "minItems",
            "maxItems",
            "uniqueItems",
            "minProperties",
            "maxProperties",
            "enum",
        ];
        for (key, val) in ORDER.iter().filter_map(|k| schema.get(*k).map(|v| (*k, v))) {
            let check = match key {
                "minimum" | "maximum" | "multipleOf" if !number => {
                    e.fail(
                        loc,
                        format!("`+k8s:validation:{key}` on a value of type `{ty}`, which is not a number"),
                    );
                    continue;
                }
                "minimum" => {
                    let min = val.as_f64().unwrap_or_default();
                    let exclusive = flag("exclusiveMinimum");
                    quote! { #s::minimum(path, #as_f64, #shown, #min, #exclusive) }
                }
                "maximum" => {
                    let max = val.as_f64().unwrap_or_default();
                    let exclusive = flag("exclusiveMaximum");
                    quote! { #s::maximum(path, #as_f64, #shown, #max, #exclusive) }
                }
                "multipleOf" => {
                    let factor = val.as_f64().unwrap_or(1.0);
                    quote! { #s::multiple_of(path, #as_f64, #shown, #factor) }
                }
                "minLength" | "maxLength" | "pattern" if *ty != TypeRef::String => continue,
                "minLength" => {
                    let n = count(key).unwrap_or_default();
                    quote! { #s::min_length(path, v, #n) }
                }
                "maxLength" => {
                    let n = count(key).unwrap_or_default();
                    quote! { #s::max_length(path, v, #n) }
                }
                "pattern" => {
                    let p = val.as_str().unwrap_or_default();
                    quote! { #s::pattern(path, v, #p) }
                }
                "minItems" | "maxItems" | "uniqueItems" if !matches!(ty, TypeRef::Vec(_)) => continue,
                "minItems" => {
                    let n = count(key).unwrap_or_default();
                    quote! { #s::min_items(path, v.len(), #n) }
                }
                "maxItems" => {
                    let n = count(key).unwrap_or_default();
                    quote! { #s::max_items(path, v.len(), #n) }
                }
                "uniqueItems" if flag(key) => quote! { #s::unique_items(path, v) },
                "minProperties" | "maxProperties" if !matches!(ty, TypeRef::Map { .. }) => continue,
                "minProperties" => {
                    let n = count(key).unwrap_or_default();
                    quote! { #s::min_properties(path, v.len(), #n) }
                }
                "maxProperties" => {
                    let n = count(key).unwrap_or_default();
                    quote! { #s::max_properties(path, v.len(), #n) }
                }
                "enum" if *ty == TypeRef::String => {
                    let allowed: Vec<&str> = val
                        .as_array()
                        .map(|a| a.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    quote! { #s::one_of(path, v, &[#(#allowed),*]) }
                }
                _ => continue,
            };
            out.push(quote! { if let ::core::option::Option::Some(e) = #check { errs.push(e); } });
        }
        quote! { #(#out)* }
    }
}
