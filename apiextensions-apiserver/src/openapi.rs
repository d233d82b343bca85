//! The OpenAPI v3 documents of a CRD's served versions, as apiextensions-apiserver publishes
//! them: the kind's schema named `<reversed group>.<version>.<Kind>` (`com.ex.v1.Foo`) with
//! `apiVersion`, `kind` and `metadata` added and its `x-kubernetes-group-version-kind`, its list
//! kind, and the meta (and autoscaling Scale) schemas they refer to. The server completes them
//! with the paths of the installed routes, so `kubectl explain` reads a custom kind as a compiled one.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::definition::{Definition, Names};

const META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.";
const SCALE: &str = "io.k8s.api.autoscaling.v1.Scale";

/// The documents of `definition`'s served versions (those with a schema), keyed by their path
/// below `/openapi/v3/`; `shared` are the generated documents, where the meta schemas come from.
pub fn documents(definition: &Definition, names: &Names, shared: &BTreeMap<String, Value>) -> BTreeMap<String, Value> {
    let names = names.defaulted();
    let mut common = Map::new();
    for doc in shared.values() {
        let Some(schemas) = doc.pointer("/components/schemas").and_then(Value::as_object) else {
            continue;
        };
        for (name, schema) in schemas {
            if name.starts_with(META) || name.starts_with(SCALE) {
                common.entry(name.clone()).or_insert_with(|| schema.clone());
            }
        }
    }
    let prefix: Vec<&str> = definition.group.split('.').rev().collect();
    let prefix = prefix.join(".");
    definition
        .versions
        .iter()
        .filter(|v| v.served)
        .filter_map(|v| {
            let schema = v.schema.as_ref()?.open_api_v3_schema.clone()?;
            let gvk = |kind: &str| json!([{"group": definition.group, "version": v.name, "kind": kind}]);
            let kind_name = format!("{prefix}.{}.{}", v.name, names.kind);
            let list_name = format!("{prefix}.{}.{}", v.name, names.list_kind);
            let mut kind = schema;
            if !kind.is_object() {
                kind = json!({"type": "object"});
            }
            let properties = kind
                .as_object_mut()
                .map(|m| m.entry("properties").or_insert_with(|| json!({})));
            if let Some(Value::Object(p)) = properties {
                p.insert("apiVersion".into(), api_version());
                p.insert("kind".into(), kind_field());
                p.insert(
                    "metadata".into(),
                    json!({"allOf": [{"$ref": format!("#/components/schemas/{META}ObjectMeta")}],
                           "description": "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"}),
                );
            }
            kind["x-kubernetes-group-version-kind"] = gvk(&names.kind);
            let list = json!({
                "description": format!("{} is a list of {}", names.list_kind, names.kind),
                "type": "object",
                "required": ["items"],
                "properties": {
                    "apiVersion": api_version(),
                    "items": {
                        "description": format!("List of {}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md", names.plural),
                        "type": "array",
                        "items": {"$ref": format!("#/components/schemas/{kind_name}")}
                    },
                    "kind": kind_field(),
                    "metadata": {"allOf": [{"$ref": format!("#/components/schemas/{META}ListMeta")}],
                                 "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"}
                },
                "x-kubernetes-group-version-kind": gvk(&names.list_kind),
            });
            let mut schemas = common.clone();
            schemas.insert(kind_name, kind);
            schemas.insert(list_name, list);
            let doc = json!({
                "openapi": "3.0.0",
                "info": {"title": "Kubernetes CRD Swagger", "version": "v0.1.0"},
                "paths": {},
                "components": {"schemas": schemas},
            });
            Some((format!("apis/{}/{}", definition.group, v.name), doc))
        })
        .collect()
}

fn api_version() -> Value {
    json!({"description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources", "type": "string"})
}

fn kind_field() -> Value {
    json!({"description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds", "type": "string"})
}
