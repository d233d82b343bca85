//! OpenAPI definitions as a server serves them: the generated `get_openapi_definitions()` reads the
//! generated swagger document into one entry per model name, each with the definitions it
//! references (Go's `common.OpenAPIDefinition` with its `Dependencies`).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// One definition and the model names it references directly.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenApiDefinition {
    /// The schema, in swagger 2.0 form (`$ref: "#/definitions/<name>"`).
    pub schema: Value,
    /// Model names this schema references, sorted.
    pub dependencies: Vec<String>,
}

/// Reads the `definitions` of a swagger 2.0 document.
pub fn definitions_from_swagger(json: &str) -> Result<BTreeMap<String, OpenApiDefinition>, serde_json::Error> {
    let doc: Value = serde_json::from_str(json)?;
    let defs = doc
        .get("definitions")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    Ok(defs
        .into_iter()
        .map(|(name, schema)| {
            let mut refs = BTreeSet::new();
            collect_refs(&schema, &mut refs);
            (
                name,
                OpenApiDefinition {
                    schema,
                    dependencies: refs.into_iter().collect(),
                },
            )
        })
        .collect())
}

fn collect_refs(v: &Value, refs: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                refs.insert(r.trim_start_matches("#/definitions/").to_string());
            }
            m.values().for_each(|x| collect_refs(x, refs));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_refs(x, refs)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_definitions_and_their_dependencies() {
        let doc = r##"{"swagger":"2.0","definitions":{
            "a.B":{"type":"object","properties":{"c":{"$ref":"#/definitions/a.C"},"d":{"type":"array","items":{"$ref":"#/definitions/a.D"}}}},
            "a.C":{"type":"string"}}}"##;
        let defs = definitions_from_swagger(doc).unwrap();
        assert_eq!(defs["a.B"].dependencies, ["a.C", "a.D"]);
        assert!(defs["a.C"].dependencies.is_empty());
        assert!(definitions_from_swagger("{").is_err());
    }
}
