//! serde fidelity: for every `rename_all` rule, on fields and on variants, the JSON names the
//! generators compute (read from the OpenAPI document they write) equal what serde_json writes for
//! the same types compiled with serde_derive; likewise `rename(serialize/deserialize)`, `alias`
//! and `transparent`. The types are defined once, by a macro that compiles them and hands their
//! source text to the generators.

use std::collections::BTreeSet;

use serde_json::Value;

/// Compiles the items and keeps their source text in `$src`.
macro_rules! source_and_items {
    ($src:ident; $($t:tt)*) => {
        $($t)*
        const $src: &str = stringify!($($t)*);
    };
}

/// One rename rule on a struct of awkward field names and on an enum of awkward variant names.
macro_rules! rule_case {
    ($fields:ident, $variants:ident, $holder:ident, $src:ident, $rule:literal) => {
        source_and_items! { $src;
            #[derive(Default, serde::Serialize)]
            #[serde(rename_all = $rule)]
            pub struct $fields {
                pub host_ip: String,
                pub a1_b: String,
                pub url2_path: String,
                pub x: String,
                pub r#type: String,
                pub match_: u8,
                pub _leading: String,
                pub many_small_words_here: bool,
                pub pod_i_ps: String,
            }

            #[derive(Debug, Clone, Copy, serde::Serialize)]
            #[serde(rename_all = $rule)]
            pub enum $variants {
                HTTPGet,
                TCPSocket,
                A,
                Abc1Def,
                IPv4,
                #[serde(rename = "exactly-this")]
                Renamed,
            }

            // Parsed by the generators as source text, never built: the struct only has to be
            // valid Rust that serde accepts.
            #[allow(dead_code)]
            #[derive(serde::Serialize)]
            pub struct $holder {
                pub v: $variants,
            }
        }
    };
}

/// Every variant of a `rule_case!` enum, serialized.
macro_rules! variants {
    ($e:ident) => {
        [$e::HTTPGet, $e::TCPSocket, $e::A, $e::Abc1Def, $e::IPv4, $e::Renamed]
            .iter()
            .map(|v| serde_json::to_value(v).unwrap().as_str().unwrap().to_string())
            .collect::<BTreeSet<String>>()
    };
}

rule_case!(FieldsLower, VariantsLower, HolderLower, SOURCE_LOWER, "lowercase");
rule_case!(FieldsUpper, VariantsUpper, HolderUpper, SOURCE_UPPER, "UPPERCASE");
rule_case!(FieldsPascal, VariantsPascal, HolderPascal, SOURCE_PASCAL, "PascalCase");
rule_case!(FieldsCamel, VariantsCamel, HolderCamel, SOURCE_CAMEL, "camelCase");
rule_case!(FieldsSnake, VariantsSnake, HolderSnake, SOURCE_SNAKE, "snake_case");
rule_case!(
    FieldsScreamingSnake,
    VariantsScreamingSnake,
    HolderScreamingSnake,
    SOURCE_SCREAMINGSNAKE,
    "SCREAMING_SNAKE_CASE"
);
rule_case!(FieldsKebab, VariantsKebab, HolderKebab, SOURCE_KEBAB, "kebab-case");
rule_case!(
    FieldsScreamingKebab,
    VariantsScreamingKebab,
    HolderScreamingKebab,
    SOURCE_SCREAMINGKEBAB,
    "SCREAMING-KEBAB-CASE"
);

source_and_items! { SOURCE_OTHER;
    #[derive(Default, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct Split {
        #[serde(rename(serialize = "out", deserialize = "in"))]
        pub x: String,
        #[serde(alias = "older")]
        pub kept_name: String,
    }

    #[derive(Default, serde::Serialize)]
    #[serde(transparent)]
    pub struct Wrapped {
        pub inner: u32,
    }

    #[derive(Default, serde::Serialize)]
    pub struct UsesWrapped {
        pub w: Wrapped,
    }
}

/// The swagger document the generators write for `types`, as one package.
fn swagger(types: &str) -> Value {
    let files = vec![
        ("lib.rs".to_string(), "pub mod fidelity;".to_string()),
        ("fidelity/mod.rs".to_string(), "pub mod v1;".to_string()),
        (
            "fidelity/v1/mod.rs".to_string(),
            "//! +groupName=fidelity.example.dev\n//! +k8s:openapi-gen=true\n//! +k8s:register-gen=false\nmod types;\npub use types::*;\n".to_string(),
        ),
        ("fidelity/v1/types.rs".to_string(), types.to_string()),
    ];
    let config = kube_code_generator::Config::new("src").output("out").documents("docs");
    let plan = kube_code_generator::generate_from_sources(&config, files, "// Header.\n")
        .unwrap_or_else(|f| panic!("{}", f.render()));
    let doc = &plan.files[std::path::Path::new("docs/swagger.json")].contents;
    serde_json::from_str(doc).unwrap()
}

fn def<'a>(doc: &'a Value, name: &str) -> &'a Value {
    &doc["definitions"][format!("dev.example.fidelity.v1.{name}")]
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

#[test]
fn rename_rules_match_serde_on_fields_and_variants() {
    let cases = [
        (
            "Lower",
            SOURCE_LOWER,
            serde_json::to_value(FieldsLower::default()).unwrap(),
            variants!(VariantsLower),
        ),
        (
            "Upper",
            SOURCE_UPPER,
            serde_json::to_value(FieldsUpper::default()).unwrap(),
            variants!(VariantsUpper),
        ),
        (
            "Pascal",
            SOURCE_PASCAL,
            serde_json::to_value(FieldsPascal::default()).unwrap(),
            variants!(VariantsPascal),
        ),
        (
            "Camel",
            SOURCE_CAMEL,
            serde_json::to_value(FieldsCamel::default()).unwrap(),
            variants!(VariantsCamel),
        ),
        (
            "Snake",
            SOURCE_SNAKE,
            serde_json::to_value(FieldsSnake::default()).unwrap(),
            variants!(VariantsSnake),
        ),
        (
            "ScreamingSnake",
            SOURCE_SCREAMINGSNAKE,
            serde_json::to_value(FieldsScreamingSnake::default()).unwrap(),
            variants!(VariantsScreamingSnake),
        ),
        (
            "Kebab",
            SOURCE_KEBAB,
            serde_json::to_value(FieldsKebab::default()).unwrap(),
            variants!(VariantsKebab),
        ),
        (
            "ScreamingKebab",
            SOURCE_SCREAMINGKEBAB,
            serde_json::to_value(FieldsScreamingKebab::default()).unwrap(),
            variants!(VariantsScreamingKebab),
        ),
    ];
    for (rule, source, fields, variants) in cases {
        let doc = swagger(source);
        let ours = keys(&def(&doc, &format!("Fields{rule}"))["properties"]);
        assert_eq!(ours, keys(&fields), "field names under {rule}");
        let values: BTreeSet<String> = def(&doc, &format!("Holder{rule}"))["properties"]["v"]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert_eq!(values, variants, "variant names under {rule}");
    }
    // The case the issue names: serde's camelCase keeps an acronym's capitals after the first.
    assert!(variants!(VariantsCamel).contains("hTTPGet"));
}

#[test]
fn split_renames_aliases_and_transparent_match_serde() {
    let doc = swagger(SOURCE_OTHER);
    let split = serde_json::to_value(Split::default()).unwrap();
    assert_eq!(keys(&def(&doc, "Split")["properties"]), keys(&split));
    let back: Split = serde_json::from_str(r#"{"in": "a", "older": "b"}"#).unwrap();
    assert_eq!((back.x.as_str(), back.kept_name.as_str()), ("a", "b"));
    let uses = serde_json::to_value(UsesWrapped::default()).unwrap();
    assert_eq!(uses, serde_json::json!({"w": 0}));
    // A transparent struct's definition is its field's schema, as a newtype's is.
    let wrapped = def(&doc, "Wrapped");
    assert_eq!(
        (&wrapped["type"], &wrapped["format"]),
        (&serde_json::json!("integer"), &serde_json::json!("int64"))
    );
    assert_eq!(wrapped.get("properties"), None, "{wrapped}");
}
