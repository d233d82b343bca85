//! A CustomResourceDefinition as the server reads it (apiextensions.k8s.io/v1, the fields that
//! decide how its resources are served), and the REST mappings of its served versions.

use kube_apimachinery::{PrinterColumn, RestMapping, RestScope, ScalePaths, SubresourceMapping};
use serde::Deserialize;
use serde_json::Value;

use super::intern;

/// The parts of a CRD that serving reads.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Definition {
    /// `metadata.name`, `<plural>.<group>`.
    #[serde(skip)]
    pub name: String,
    /// `metadata.uid`.
    #[serde(skip)]
    pub uid: String,
    /// `group`.
    pub group: String,
    /// `names`.
    pub names: Names,
    /// `scope`.
    pub scope: String,
    /// `versions`.
    pub versions: Vec<Version>,
    /// `conversion`.
    pub conversion: Option<Value>,
}

/// `spec.names` (and `status.acceptedNames`).
#[derive(Clone, Debug, Default, Deserialize, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Names {
    /// `plural`.
    pub plural: String,
    /// `singular`.
    pub singular: String,
    /// `kind`.
    pub kind: String,
    /// `listKind`.
    pub list_kind: String,
    /// `shortNames`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    /// `categories`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
}

impl Names {
    /// The names with Kubernetes' defaults filled: the singular is the lower-cased kind, the
    /// list kind is `<Kind>List`.
    pub fn defaulted(&self) -> Names {
        let mut names = self.clone();
        if names.singular.is_empty() {
            names.singular = names.kind.to_lowercase();
        }
        if names.list_kind.is_empty() && !names.kind.is_empty() {
            names.list_kind = format!("{}List", names.kind);
        }
        names
    }
}

/// One of `spec.versions`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Version {
    /// `name`.
    pub name: String,
    /// `served`.
    pub served: bool,
    /// `storage`.
    pub storage: bool,
    /// `deprecated`.
    pub deprecated: bool,
    /// `deprecationWarning`.
    pub deprecation_warning: Option<String>,
    /// `schema`.
    pub schema: Option<Schema>,
    /// `subresources`.
    pub subresources: Option<Subresources>,
    /// `additionalPrinterColumns`.
    pub additional_printer_columns: Vec<Column>,
    /// `selectableFields`.
    pub selectable_fields: Vec<SelectableField>,
}

/// `schema`: the structural schema of the version.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Schema {
    /// `openAPIV3Schema`.
    #[serde(rename = "openAPIV3Schema")]
    pub open_api_v3_schema: Option<Value>,
}

/// `subresources`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Subresources {
    /// `status`.
    pub status: Option<Value>,
    /// `scale`.
    pub scale: Option<Scale>,
}

/// `subresources.scale`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Scale {
    /// `specReplicasPath`.
    pub spec_replicas_path: String,
    /// `statusReplicasPath`.
    pub status_replicas_path: String,
    /// `labelSelectorPath`.
    pub label_selector_path: Option<String>,
}

/// One of `additionalPrinterColumns`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct Column {
    /// `name`.
    pub name: String,
    /// `type`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `format`.
    pub format: String,
    /// `description`.
    pub description: String,
    /// `priority`.
    pub priority: u32,
    /// `jsonPath`.
    pub json_path: String,
}

/// One of `selectableFields`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub struct SelectableField {
    /// `jsonPath`.
    pub json_path: String,
}

impl Definition {
    /// The definition a stored CRD object states; `None` when its spec does not read as one
    /// (validation refuses such a CRD before it is stored).
    pub fn read(crd: &Value) -> Option<Definition> {
        let mut definition: Definition = serde_json::from_value(crd.get("spec")?.clone()).ok()?;
        let meta = crd.get("metadata")?;
        definition.name = meta.get("name")?.as_str()?.to_string();
        definition.uid = meta.get("uid").and_then(Value::as_str).unwrap_or_default().to_string();
        Some(definition)
    }

    /// The version objects are stored in.
    pub fn storage_version(&self) -> Option<&Version> {
        self.versions.iter().find(|v| v.storage)
    }

    /// The version named `name`.
    pub fn version(&self, name: &str) -> Option<&Version> {
        self.versions.iter().find(|v| v.name == name)
    }

    /// The structural schema of version `name` (one that keeps everything when it has none).
    pub fn structural(&self, name: &str) -> super::schema::Structural {
        let schema = self
            .version(name)
            .and_then(|v| v.schema.as_ref()?.open_api_v3_schema.clone());
        match schema {
            Some(schema) => super::schema::Structural::read(&schema, "openAPIV3Schema", &mut Vec::new()),
            None => super::schema::Structural {
                preserve_unknown: true,
                ..Default::default()
            },
        }
    }

    /// Whether the conversion between versions is a webhook's.
    pub fn webhook(&self) -> Option<&Value> {
        let conversion = self.conversion.as_ref()?;
        (conversion.get("strategy").and_then(Value::as_str) == Some("Webhook"))
            .then(|| conversion.get("webhook"))
            .flatten()
    }

    /// The mapping of each served version, under `names` (the accepted names).
    pub fn mappings(&self, names: &Names) -> Vec<RestMapping> {
        let names = names.defaulted();
        let Some(storage) = self.storage_version() else {
            return Vec::new();
        };
        let group = intern::str(&self.group);
        let kind = intern::str(&names.kind);
        self.versions
            .iter()
            .filter(|v| v.served)
            .map(|v| {
                let version = intern::str(&v.name);
                let mut subresources = Vec::new();
                let subs = v.subresources.clone().unwrap_or_default();
                if let Some(scale) = &subs.scale {
                    subresources.push(SubresourceMapping {
                        name: "scale",
                        group: "autoscaling",
                        version: "v1",
                        kind: "Scale",
                        scale: Some(ScalePaths {
                            spec_replicas: intern::str(&scale.spec_replicas_path),
                            status_replicas: intern::str(&scale.status_replicas_path),
                            label_selector: scale.label_selector_path.as_deref().map(intern::str),
                        }),
                    });
                }
                if subs.status.is_some() {
                    subresources.push(SubresourceMapping {
                        name: "status",
                        group,
                        version,
                        kind,
                        scale: None,
                    });
                }
                subresources.sort_by_key(|s| s.name);
                let columns = v
                    .additional_printer_columns
                    .iter()
                    .map(|c| PrinterColumn {
                        name: intern::str(&c.name),
                        type_: intern::str(&c.type_),
                        format: intern::str(&c.format),
                        description: intern::str(&c.description),
                        priority: c.priority,
                        json_path: intern::str(&c.json_path),
                    })
                    .collect();
                RestMapping {
                    group,
                    version,
                    resource: intern::str(&names.plural),
                    kind,
                    list_kind: Some(intern::str(&names.list_kind)),
                    singular: intern::str(&names.singular),
                    scope: if self.scope == "Cluster" {
                        RestScope::Cluster
                    } else {
                        RestScope::Namespaced
                    },
                    short_names: intern::names(names.short_names.iter().map(|s| intern::str(s)).collect()),
                    categories: intern::names(names.categories.iter().map(|s| intern::str(s)).collect()),
                    subresources: intern::subresources(subresources),
                    storage_version: intern::str(&storage.name),
                    printer_columns: intern::columns(columns),
                    generation: true,
                }
            })
            .collect()
    }
}
