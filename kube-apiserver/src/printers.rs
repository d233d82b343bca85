//! The columns `kubectl get` shows for the built-in kinds, as kube-apiserver's printers
//! (pkg/printers/internalversion) write them: hand-written per kind in Kubernetes too, and
//! registered with the server by resource.

use std::sync::Arc;

use kube_generic_apiserver::server::Server;
use kube_generic_apiserver::table::{Column, TableConvertor, age, age_column, name_column, since};
use serde_json::{Value, json};

fn column(name: &'static str, kind: &'static str, description: &'static str, priority: u32) -> Column {
    Column {
        name,
        kind,
        format: "",
        description: description.into(),
        priority,
    }
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or(0)
}

/// Deployments: READY, UP-TO-DATE, AVAILABLE, AGE; wide adds CONTAINERS, IMAGES, SELECTOR.
struct Deployments;

impl TableConvertor for Deployments {
    fn columns(&self) -> Vec<Column> {
        vec![
            name_column(),
            column("Ready", "string", "Number of the pod with ready state", 0),
            column(
                "Up-to-date",
                "string",
                "Total number of non-terminated pods targeted by this deployment that have the desired template spec.",
                0,
            ),
            column(
                "Available",
                "string",
                "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.",
                0,
            ),
            age_column(),
            column("Containers", "string", "Names of each container in the template.", 1),
            column(
                "Images",
                "string",
                "Images referenced by each container in the template.",
                1,
            ),
            column(
                "Selector",
                "string",
                "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.",
                1,
            ),
        ]
    }

    fn cells(&self, d: &Value) -> Vec<Value> {
        let (spec, status) = (&d["spec"], &d["status"]);
        let containers = spec["template"]["spec"]["containers"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let join = |k: &str| {
            containers
                .iter()
                .filter_map(|c| c[k].as_str())
                .collect::<Vec<_>>()
                .join(",")
        };
        let selector = spec["selector"]["matchLabels"]
            .as_object()
            .map(|m| {
                m.iter()
                    .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .unwrap_or_default();
        vec![
            d["metadata"]["name"].clone(),
            json!(format!("{}/{}", int(&status["readyReplicas"]), int(&spec["replicas"]))),
            json!(int(&status["updatedReplicas"])),
            json!(int(&status["availableReplicas"])),
            age(d),
            json!(join("name")),
            json!(join("image")),
            json!(selector),
        ]
    }
}

/// Pods: READY, STATUS, RESTARTS, AGE; wide adds IP and NODE.
struct Pods;

impl TableConvertor for Pods {
    fn columns(&self) -> Vec<Column> {
        vec![
            name_column(),
            column(
                "Ready",
                "string",
                "The aggregate readiness state of this pod for accepting traffic.",
                0,
            ),
            column(
                "Status",
                "string",
                "The aggregate status of the containers in this pod.",
                0,
            ),
            column(
                "Restarts",
                "string",
                "The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.",
                0,
            ),
            age_column(),
            column("IP", "string", "The IP address assigned to the pod.", 1),
            column("Node", "string", "The name of the node assigned to the pod.", 1),
        ]
    }

    fn cells(&self, p: &Value) -> Vec<Value> {
        let containers = p["spec"]["containers"].as_array().map(Vec::len).unwrap_or(0);
        let statuses = p["status"]["containerStatuses"].as_array().cloned().unwrap_or_default();
        let ready = statuses.iter().filter(|s| s["ready"] == true).count();
        let restarts: i64 = statuses.iter().map(|s| int(&s["restartCount"])).sum();
        let phase = p["status"]["phase"].as_str().unwrap_or("Pending");
        let or_none = |v: &Value| json!(v.as_str().filter(|s| !s.is_empty()).unwrap_or("<none>"));
        vec![
            p["metadata"]["name"].clone(),
            json!(format!("{ready}/{containers}")),
            json!(phase),
            json!(restarts),
            age(p),
            or_none(&p["status"]["podIP"]),
            or_none(&p["spec"]["nodeName"]),
        ]
    }
}

/// ConfigMaps: DATA, AGE.
struct ConfigMaps;

impl TableConvertor for ConfigMaps {
    fn columns(&self) -> Vec<Column> {
        vec![
            name_column(),
            column("Data", "integer", "The number of keys in the data and binaryData.", 0),
            age_column(),
        ]
    }

    fn cells(&self, c: &Value) -> Vec<Value> {
        let count = |k: &str| c[k].as_object().map(|m| m.len()).unwrap_or(0);
        vec![
            c["metadata"]["name"].clone(),
            json!(count("data") + count("binaryData")),
            age(c),
        ]
    }
}

/// Namespaces: STATUS, AGE.
struct Namespaces;

impl TableConvertor for Namespaces {
    fn columns(&self) -> Vec<Column> {
        vec![
            name_column(),
            column("Status", "string", "The status of the namespace", 0),
            age_column(),
        ]
    }

    fn cells(&self, n: &Value) -> Vec<Value> {
        vec![
            n["metadata"]["name"].clone(),
            json!(n["status"]["phase"].as_str().unwrap_or("Active")),
            age(n),
        ]
    }
}

/// Events: LAST SEEN, TYPE, REASON, OBJECT, MESSAGE; wide adds SUBOBJECT, SOURCE, FIRST SEEN,
/// COUNT and NAME (kube-apiserver's `printEvent`).
struct Events;

impl TableConvertor for Events {
    fn columns(&self) -> Vec<Column> {
        let mut name = column("Name", "string", "Name of the event.", 1);
        name.format = "name";
        vec![
            column(
                "Last Seen",
                "string",
                "The time at which the most recent occurrence of this event was recorded.",
                0,
            ),
            column(
                "Type",
                "string",
                "Type of this event (Normal, Warning), new types could be added in the future",
                0,
            ),
            column(
                "Reason",
                "string",
                "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
                0,
            ),
            column("Object", "string", "The object that this event is about.", 0),
            column(
                "Subobject",
                "string",
                "If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.",
                1,
            ),
            column(
                "Source",
                "string",
                "The component reporting this event. Should be a short machine understandable string.",
                1,
            ),
            column(
                "Message",
                "string",
                "A human-readable description of the status of this operation.",
                0,
            ),
            column(
                "First Seen",
                "string",
                "The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)",
                1,
            ),
            column("Count", "string", "The number of times this event has occurred.", 1),
            name,
        ]
    }

    fn cells(&self, e: &Value) -> Vec<Value> {
        let text = |v: &Value| v.as_str().unwrap_or("").to_string();
        let first = match e["firstTimestamp"].as_str() {
            Some(t) => since(t),
            None => since(e["eventTime"].as_str().unwrap_or("")),
        };
        let mut last = match e["lastTimestamp"].as_str() {
            Some(t) => since(t),
            None => first.clone(),
        };
        let mut count = int(&e["count"]);
        if e["series"].is_object() {
            last = since(e["series"]["lastObservedTime"].as_str().unwrap_or(""));
            count = int(&e["series"]["count"]);
        } else if count == 0 {
            count = 1;
        }
        let involved = &e["involvedObject"];
        let kind = text(&involved["kind"]).to_lowercase();
        let target = match text(&involved["name"]) {
            name if name.is_empty() => kind,
            name => format!("{kind}/{name}"),
        };
        let either = |a: &Value, b: &Value| Some(text(a)).filter(|s| !s.is_empty()).unwrap_or_else(|| text(b));
        let component = either(&e["source"]["component"], &e["reportingComponent"]);
        let instance = either(&e["source"]["host"], &e["reportingInstance"]);
        let source = match (component.is_empty(), instance.is_empty()) {
            (true, _) => String::new(),
            (false, true) => component,
            (false, false) => format!("{component}, {instance}"),
        };
        vec![
            last,
            json!(text(&e["type"])),
            json!(text(&e["reason"])),
            json!(target),
            json!(text(&involved["fieldPath"])),
            json!(source),
            json!(text(&e["message"]).trim()),
            first,
            json!(count),
            e["metadata"]["name"].clone(),
        ]
    }
}

/// The strings of a JSON array.
fn texts(v: &Value) -> impl Iterator<Item = &str> {
    v.as_array().into_iter().flatten().filter_map(Value::as_str)
}

/// Services: TYPE, CLUSTER-IP, EXTERNAL-IP, PORT(S), AGE; wide adds SELECTOR (kube-apiserver's
/// `printService`).
struct Services;

impl TableConvertor for Services {
    fn columns(&self) -> Vec<Column> {
        vec![
            name_column(),
            column("Type", "string", "type determines how the Service is exposed.", 0),
            column("Cluster-IP", "string", "clusterIP is the IP address of the service.", 0),
            column(
                "External-IP",
                "string",
                "externalIPs or the load balancer's addresses.",
                0,
            ),
            column(
                "Port(s)",
                "string",
                "The list of ports that are exposed by this service.",
                0,
            ),
            age_column(),
            column(
                "Selector",
                "string",
                "Route service traffic to pods with label keys and values matching this selector.",
                1,
            ),
        ]
    }

    fn cells(&self, s: &Value) -> Vec<Value> {
        let spec = &s["spec"];
        let external_ips: Vec<String> = texts(&spec["externalIPs"]).map(str::to_string).collect();
        let kind = spec["type"].as_str().unwrap_or("ClusterIP");
        let external = match kind {
            "ExternalName" => spec["externalName"].as_str().unwrap_or_default().to_string(),
            "LoadBalancer" => {
                let mut ips: Vec<String> = s["status"]["loadBalancer"]["ingress"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|i| i["ip"].as_str().or(i["hostname"].as_str()))
                    .map(str::to_string)
                    .collect();
                ips.extend(external_ips);
                if ips.is_empty() {
                    "<pending>".to_string()
                } else {
                    ips.join(",")
                }
            }
            _ if external_ips.is_empty() => "<none>".to_string(),
            _ => external_ips.join(","),
        };
        let ports: Vec<String> = spec["ports"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                let protocol = p["protocol"].as_str().unwrap_or("TCP");
                match p["nodePort"].as_i64().filter(|n| *n > 0) {
                    Some(node) => format!("{}:{node}/{protocol}", int(&p["port"])),
                    None => format!("{}/{protocol}", int(&p["port"])),
                }
            })
            .collect();
        let selector: Vec<String> = spec["selector"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or_default()))
            .collect();
        let or_none = |v: String| if v.is_empty() { "<none>".to_string() } else { v };
        vec![
            s["metadata"]["name"].clone(),
            json!(kind),
            json!(texts(&spec["clusterIPs"]).next().unwrap_or("<none>")),
            json!(external),
            json!(or_none(ports.join(","))),
            age(s),
            json!(or_none(selector.join(","))),
        ]
    }
}

/// Secrets: TYPE, DATA, AGE.
struct Secrets;

impl TableConvertor for Secrets {
    fn columns(&self) -> Vec<Column> {
        vec![
            name_column(),
            column(
                "Type",
                "string",
                "Used to facilitate programmatic handling of secret data.",
                0,
            ),
            column("Data", "integer", "The number of keys in the data.", 0),
            age_column(),
        ]
    }

    fn cells(&self, s: &Value) -> Vec<Value> {
        vec![
            s["metadata"]["name"].clone(),
            json!(s["type"].as_str().unwrap_or_default()),
            json!(s["data"].as_object().map_or(0, |d| d.len())),
            age(s),
        ]
    }
}

/// Registers the printers with the server.
pub fn install(server: Server) -> Server {
    server
        .with_table("apps", "deployments", Arc::new(Deployments))
        .with_table("", "pods", Arc::new(Pods))
        .with_table("", "configmaps", Arc::new(ConfigMaps))
        .with_table("", "namespaces", Arc::new(Namespaces))
        .with_table("", "events", Arc::new(Events))
        .with_table("", "services", Arc::new(Services))
        .with_table("", "secrets", Arc::new(Secrets))
}
