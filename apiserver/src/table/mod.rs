//! Tables (`Accept: application/json;as=Table;g=meta.k8s.io;v=v1`, what `kubectl get` prints):
//! k8s.io/apiserver's `rest.TableConvertor` capability. Kinds without a convertor get apiserver's
//! default (name and creation time); a server registers per-kind columns, as kube-apiserver's
//! printers do for Deployments and Pods.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use kube_apimachinery::RestMapping;

use serde_json::{Value, json};

mod columns;
pub use columns::PrinterColumns;

/// One column of a table.
#[derive(Clone, Debug)]
pub struct Column {
    /// The header (`Ready`).
    pub name: &'static str,
    /// `string`, `integer`, `number`, `boolean` or `date`.
    pub kind: &'static str,
    /// `name` for the name column, `date-time`, or empty.
    pub format: &'static str,
    /// What the column shows.
    pub description: Cow<'static, str>,
    /// 0 for the default view, 1 for `-o wide`.
    pub priority: u32,
}

/// Turns objects (in the request's version) into rows.
pub trait TableConvertor: Send + Sync {
    /// The columns.
    fn columns(&self) -> Vec<Column>;
    /// The cells of one object, one per column.
    fn cells(&self, obj: &Value) -> Vec<Value>;
}

/// The table convertors a server registered, by (group, resource).
#[derive(Clone, Default)]
pub struct Tables(BTreeMap<(String, String), Arc<dyn TableConvertor>>);

impl Tables {
    /// Prints `resource` of `group` with `convertor`'s columns (kube-apiserver's printers).
    pub fn insert(&mut self, group: &str, resource: &str, convertor: Arc<dyn TableConvertor>) {
        self.0.insert((group.to_string(), resource.to_string()), convertor);
    }

    /// The convertor of a resource (a subresource prints as its kind's resource does): the one
    /// registered for it, else its printer columns (a CRD's), else the default.
    pub fn of(&self, mapping: &RestMapping, subresource: Option<&str>) -> Arc<dyn TableConvertor> {
        let key = (mapping.group.to_string(), mapping.resource.to_string());
        match self.0.get(&key) {
            Some(t) if subresource.is_none() => t.clone(),
            _ if !mapping.printer_columns.is_empty() && subresource.is_none() => {
                Arc::new(PrinterColumns(mapping.printer_columns))
            }
            _ => Arc::new(DefaultTable),
        }
    }
}

/// apiserver's DefaultTableConvertor: Name and Created At.
pub struct DefaultTable;

const NAME_DESCRIPTION: &str = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

impl TableConvertor for DefaultTable {
    fn columns(&self) -> Vec<Column> {
        vec![
            name_column(),
            Column {
                name: "Created At",
                kind: "date",
                format: "",
                description: CREATED_DESCRIPTION.into(),
                priority: 0,
            },
        ]
    }

    fn cells(&self, obj: &Value) -> Vec<Value> {
        vec![
            obj["metadata"]["name"].clone(),
            obj["metadata"]["creationTimestamp"].clone(),
        ]
    }
}

/// The Name column every printer starts with.
pub fn name_column() -> Column {
    Column {
        name: "Name",
        kind: "string",
        format: "name",
        description: NAME_DESCRIPTION.into(),
        priority: 0,
    }
}

/// The Age column printers end their default view with; kubectl shows the time since the value.
pub fn age_column() -> Column {
    Column {
        name: "Age",
        kind: "string",
        format: "",
        description: CREATED_DESCRIPTION.into(),
        priority: 0,
    }
}

const CREATED_DESCRIPTION: &str =
    "CreationTimestamp is a timestamp representing the server time when this object was created.";

/// An object's age as kubectl's printers write it (`5s`, `3m`, `2h`, `4d`).
pub fn age(obj: &Value) -> Value {
    since(obj["metadata"]["creationTimestamp"].as_str().unwrap_or(""))
}

/// The time since an RFC 3339 timestamp, as [`age`] writes it; `<unknown>` for anything else.
pub fn since(timestamp: &str) -> Value {
    let Ok(then) = timestamp.parse::<k8s_openapi::jiff::Timestamp>() else {
        return json!("<unknown>");
    };
    let secs = (k8s_openapi::jiff::Timestamp::now().as_second() - then.as_second()).max(0);
    json!(match secs {
        s if s < 120 => format!("{s}s"),
        s if s < 7200 => format!("{}m", s / 60),
        s if s < 172_800 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86_400),
    })
}

/// A Table of `items`, each row with the object's metadata as PartialObjectMetadata.
pub fn table(convertor: &dyn TableConvertor, items: &[Value], resource_version: &Value) -> Value {
    let columns: Vec<Value> = convertor
        .columns()
        .iter()
        .map(|c| json!({"name": c.name, "type": c.kind, "format": c.format, "description": c.description, "priority": c.priority}))
        .collect();
    let rows: Vec<Value> = items
        .iter()
        .map(|obj| {
            let meta = obj.get("metadata").cloned().unwrap_or_else(|| json!({}));
            json!({
                "cells": convertor.cells(obj),
                "object": {"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": meta},
            })
        })
        .collect();
    let mut metadata = json!({});
    if !resource_version.is_null() {
        metadata["resourceVersion"] = resource_version.clone();
    }
    json!({"kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": metadata, "columnDefinitions": columns, "rows": rows})
}
