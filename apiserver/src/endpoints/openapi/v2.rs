//! `/openapi/v2`: the served v3 documents merged into one Swagger 2.0 document, as kube-apiserver
//! serves for clients older than OpenAPI v3 (kubectl before 1.27, client-side validation): schemas
//! become `definitions` (references rewritten), each operation's request body becomes a `body`
//! parameter, response contents become `schema` with `produces`, parameters carry their schema's
//! type inline.

use serde_json::{Map, Value, json};

/// The v2 document of `docs` (v3 documents, each with `paths` and `components.schemas`).
pub fn document<'a>(docs: impl IntoIterator<Item = &'a Value>) -> Value {
    let mut paths = Map::new();
    let mut definitions = Map::new();
    let mut info = json!({"title": "Kubernetes", "version": "unversioned"});
    for doc in docs {
        if let Some(i) = doc.get("info") {
            info = i.clone();
        }
        let schemas = doc.pointer("/components/schemas").and_then(Value::as_object);
        for (name, schema) in schemas.into_iter().flatten() {
            definitions.insert(name.clone(), schema_v2(schema));
        }
        for (path, item) in doc.get("paths").and_then(Value::as_object).into_iter().flatten() {
            let operations = item.as_object().into_iter().flatten();
            let converted: Map<String, Value> = operations.map(|(m, op)| (m.clone(), operation(op))).collect();
            paths.insert(path.clone(), Value::Object(converted));
        }
    }
    json!({"swagger": "2.0", "info": info, "paths": paths, "definitions": definitions})
}

/// A schema in v2 terms: references into `definitions`; no `nullable`, `anyOf` or `oneOf` (an
/// int-or-string is a string of format `int-or-string`, as kube-openapi writes it). Only schema
/// keywords are rewritten: property names, defaults and examples are kept as they are.
fn schema_v2(schema: &Value) -> Value {
    let Some(fields) = schema.as_object() else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in fields {
        let converted = match key.as_str() {
            "nullable" | "anyOf" | "oneOf" => continue,
            "$ref" => json!(
                value
                    .as_str()
                    .unwrap_or_default()
                    .replacen("#/components/schemas/", "#/definitions/", 1)
            ),
            "properties" | "patternProperties" => Value::Object(
                value
                    .as_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, s)| (name.clone(), schema_v2(s)))
                    .collect(),
            ),
            "items" | "additionalProperties" | "not" => schema_v2(value),
            "allOf" => Value::Array(value.as_array().into_iter().flatten().map(schema_v2).collect()),
            _ => value.clone(),
        };
        out.insert(key.clone(), converted);
    }
    if fields.get("x-kubernetes-int-or-string") == Some(&json!(true)) {
        out.insert("type".into(), json!("string"));
        out.insert("format".into(), json!("int-or-string"));
    }
    Value::Object(out)
}

/// One operation in v2 terms.
fn operation(op: &Value) -> Value {
    let Some(fields) = op.as_object() else {
        return op.clone();
    };
    let mut out = Map::new();
    let mut parameters: Vec<Value> = Vec::new();
    let mut produces: Vec<String> = Vec::new();
    for (key, value) in fields {
        match key.as_str() {
            "parameters" => parameters.extend(value.as_array().into_iter().flatten().map(parameter)),
            "requestBody" => {
                let content = value.get("content").and_then(Value::as_object);
                let consumes: Vec<&String> = content.into_iter().flatten().map(|(k, _)| k).collect();
                let schema = content
                    .and_then(|c| c.values().next())
                    .and_then(|m| m.get("schema"))
                    .map(schema_v2)
                    .unwrap_or_else(|| json!({"type": "object"}));
                // A DELETE's DeleteOptions body is optional; a write's object is required.
                let required = value.get("required").and_then(Value::as_bool).unwrap_or(false);
                parameters.push(json!({"name": "body", "in": "body", "required": required, "schema": schema}));
                out.insert("consumes".into(), json!(consumes));
            }
            "responses" => {
                let mut responses = Map::new();
                for (code, response) in value.as_object().into_iter().flatten() {
                    let mut r = json!({"description": response.get("description").cloned().unwrap_or(json!(""))});
                    for (media, body) in response.get("content").and_then(Value::as_object).into_iter().flatten() {
                        if !produces.contains(media) {
                            produces.push(media.clone());
                        }
                        if let Some(schema) = body.get("schema") {
                            r["schema"] = schema_v2(schema);
                        }
                    }
                    responses.insert(code.clone(), r);
                }
                out.insert("responses".into(), Value::Object(responses));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    if !produces.is_empty() {
        out.insert("produces".into(), json!(produces));
    }
    out.insert("parameters".into(), Value::Array(parameters));
    Value::Object(out)
}

/// A path or query parameter with its schema's type, format and flags inline.
fn parameter(p: &Value) -> Value {
    let mut out = p.as_object().cloned().unwrap_or_default();
    if let Some(Value::Object(schema)) = out.remove("schema") {
        for (key, value) in schema {
            out.entry(key).or_insert(value);
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v3_documents_merge_into_one_swagger_document() {
        let doc = json!({
            "openapi": "3.0.0",
            "info": {"title": "Kubernetes", "version": "v1.32.0"},
            "components": {"schemas": {
                "a.Thing": {"type": "object", "properties": {
                    "port": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
                    "meta": {"allOf": [{"$ref": "#/components/schemas/a.Meta"}], "default": {}},
                    "note": {"type": "string", "nullable": true},
                    "nullable": {"type": "boolean", "default": {"nullable": 1}}}},
                "a.Meta": {"type": "object"}}},
            "paths": {"/things/{name}": {"put": {
                "operationId": "replaceThing",
                "parameters": [{"name": "name", "in": "path", "required": true, "schema": {"type": "string", "uniqueItems": true}}],
                "requestBody": {"content": {"*/*": {"schema": {"$ref": "#/components/schemas/a.Thing"}}}, "required": true},
                "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/a.Thing"}}}}}}}},
        });
        let v2 = document([&doc]);
        assert_eq!(v2["swagger"], "2.0");
        assert_eq!(v2["info"]["version"], "v1.32.0");
        let thing = &v2["definitions"]["a.Thing"]["properties"];
        assert_eq!(
            thing["port"],
            json!({"x-kubernetes-int-or-string": true, "type": "string", "format": "int-or-string"})
        );
        assert_eq!(thing["meta"]["allOf"][0]["$ref"], "#/definitions/a.Meta");
        assert_eq!(thing["note"], json!({"type": "string"}));
        assert_eq!(
            thing["nullable"],
            json!({"type": "boolean", "default": {"nullable": 1}}),
            "a property named like a keyword stays, and so does a default"
        );
        let put = &v2["paths"]["/things/{name}"]["put"];
        assert_eq!(
            put["parameters"],
            json!([
                {"name": "name", "in": "path", "required": true, "type": "string", "uniqueItems": true},
                {"name": "body", "in": "body", "required": true, "schema": {"$ref": "#/definitions/a.Thing"}}
            ])
        );
        assert_eq!(put["consumes"], json!(["*/*"]));
        assert_eq!(put["produces"], json!(["application/json"]));
        assert_eq!(
            put["responses"]["200"],
            json!({"description": "OK", "schema": {"$ref": "#/definitions/a.Thing"}})
        );
    }
}
