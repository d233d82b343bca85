//! Every OpenAPI document the repository checks in (`generated/openapi/` and each fixture's) is
//! valid by its specification's own JSON Schema: the swagger 2.0 documents by the Swagger 2.0
//! schema, the per-group-version documents by the OpenAPI 3.0 schema. Both schemas are vendored
//! under `tests/data/openapi-schemas/` (origin in its README) and checked with the `jsonschema`
//! crate, offline.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

fn load(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn validator(spec: &str) -> jsonschema::Validator {
    let schema = load(&Path::new("tests/data/openapi-schemas").join(spec));
    jsonschema::draft4::new(&schema).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// Every `generated/openapi` directory: the apis crate's and each fixture's.
fn document_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from("../generated/openapi")];
    for fixture in std::fs::read_dir("tests/fixtures").unwrap() {
        dirs.push(fixture.unwrap().path().join("generated/openapi"));
    }
    dirs.retain(|d| d.exists());
    dirs.sort();
    dirs
}

fn errors(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

#[test]
fn swagger_documents_are_valid_swagger_2_0() {
    let v = validator("swagger-2.0.schema.json");
    let dirs = document_dirs();
    assert!(dirs.len() >= 3, "documents went missing: {dirs:?}");
    for dir in dirs {
        let path = dir.join("swagger.json");
        let found = errors(&v, &load(&path));
        assert!(found.is_empty(), "{}:\n{}", path.display(), found.join("\n"));
    }
}

#[test]
fn group_version_documents_are_valid_openapi_3_0() {
    let v = validator("openapi-3.0.schema.json");
    let mut checked = 0;
    for dir in document_dirs() {
        for entry in std::fs::read_dir(dir.join("v3")).unwrap() {
            let path = entry.unwrap().path();
            let found = errors(&v, &load(&path));
            assert!(found.is_empty(), "{}:\n{}", path.display(), found.join("\n"));
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} documents");
}

/// The validators are not vacuous: a schema with a misspelt keyword's wrong type, a bad `$ref`
/// and a missing `info` are rejected.
#[test]
fn invalid_documents_are_rejected() {
    let swagger = validator("swagger-2.0.schema.json");
    let bad = json!({
        "swagger": "2.0",
        "paths": {},
        "definitions": { "A": { "type": "object", "required": "name" } },
    });
    let found = errors(&swagger, &bad);
    assert!(found.len() >= 2, "{found:?}");
    let v3 = validator("openapi-3.0.schema.json");
    let bad = json!({
        "openapi": "3.0.0",
        "info": { "title": "t", "version": "v" },
        "paths": {},
        "components": { "schemas": { "A": { "type": "object", "properties": { "b": { "$ref": 7 } } } } },
    });
    assert!(!errors(&v3, &bad).is_empty());
}
