//! Tables from printer columns (a CRD's `additionalPrinterColumns`, which register-gen writes into
//! the REST mapping): the Name column, then one column per printer column, each cell read from the
//! object at the column's JSON path, as apiextensions-apiserver's table convertor does.

use serde_json::Value;

use super::{Column, TableConvertor, name_column};

/// The table of a resource with printer columns.
pub struct PrinterColumns(pub &'static [kube_apimachinery::PrinterColumn]);

impl TableConvertor for PrinterColumns {
    fn columns(&self) -> Vec<Column> {
        let mut columns = vec![name_column()];
        columns.extend(self.0.iter().map(|c| Column {
            name: c.name,
            kind: c.type_,
            format: c.format,
            description: if c.description.is_empty() {
                format!(
                    "Custom resource definition column (in JSONPath format): {}",
                    c.json_path
                )
                .into()
            } else {
                c.description.into()
            },
            priority: c.priority,
        }));
        columns
    }

    fn cells(&self, obj: &Value) -> Vec<Value> {
        let mut cells = vec![obj["metadata"]["name"].clone()];
        cells.extend(self.0.iter().map(|c| match lookup(obj, c.json_path) {
            // Dates print as the time since, as kube-apiserver writes them for CRDs.
            Some(Value::String(t)) if c.type_ == "date" => super::since(t),
            Some(v) => v.clone(),
            None => Value::Null,
        }));
        cells
    }
}

/// The value at a JSON path of fields and list indexes (`.spec.ports[0].port`, optionally in
/// braces as kubectl writes them); `None` when absent. Paths with filters or wildcards find
/// nothing: the CRD generator only checks simple paths, and so only those are printed.
fn lookup<'v>(obj: &'v Value, path: &str) -> Option<&'v Value> {
    let path = path.trim();
    let path = path.strip_prefix('{').and_then(|p| p.strip_suffix('}')).unwrap_or(path);
    let mut current = obj;
    for segment in path.strip_prefix('.')?.split('.') {
        let (field, indexes) = match segment.find('[') {
            Some(i) => segment.split_at(i),
            None => (segment, ""),
        };
        if !field.is_empty() {
            current = current.get(field)?;
        }
        for index in indexes.split('[').filter(|s| !s.is_empty()) {
            let index: usize = index.strip_suffix(']')?.parse().ok()?;
            current = current.get(index)?;
        }
    }
    Some(current)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const COLUMNS: &[kube_apimachinery::PrinterColumn] = &[
        kube_apimachinery::PrinterColumn {
            name: "Replicas",
            type_: "integer",
            format: "",
            description: "Desired replicas",
            priority: 0,
            json_path: ".spec.replicas",
        },
        kube_apimachinery::PrinterColumn {
            name: "Port",
            type_: "integer",
            format: "",
            description: "",
            priority: 1,
            json_path: "{.spec.ports[1].port}",
        },
        kube_apimachinery::PrinterColumn {
            name: "Ready",
            type_: "integer",
            format: "",
            description: "",
            priority: 0,
            json_path: ".status.readyReplicas",
        },
    ];

    #[test]
    fn cells_are_read_at_each_columns_path_after_the_name() {
        let table = PrinterColumns(COLUMNS);
        let names: Vec<_> = table.columns().iter().map(|c| (c.name, c.priority)).collect();
        assert_eq!(names, [("Name", 0), ("Replicas", 0), ("Port", 1), ("Ready", 0)]);
        assert_eq!(
            table.columns()[2].description,
            "Custom resource definition column (in JSONPath format): {.spec.ports[1].port}"
        );
        let obj = json!({"metadata": {"name": "w"}, "spec": {"replicas": 3, "ports": [{"port": 80}, {"port": 443}]}});
        assert_eq!(table.cells(&obj), [json!("w"), json!(3), json!(443), Value::Null]);
        assert_eq!(lookup(&obj, "spec"), None, "a path starts with a dot");
        assert_eq!(lookup(&obj, ".spec.ports[x]"), None);
    }
}
