//! Hand-written validation of core/v1, as Kubernetes' pkg/apis/core/validation checks a pod's
//! containers (names DNS labels and unique, images required, ports in range and unique
//! protocols, environment variable names, requests not above limits, probes and lifecycle
//! hooks in `probe_validation`), its volumes (unique
//! names, one source each) and their mounts (of a volume of the pod, each at its own path), a
//! ConfigMap (keys, the 1 MiB total, immutability), a Secret (the same, and the keys of its
//! type) and an Event (its namespace against its object's, and what a new-style Event must
//! name). The generated `validate_*` call these, so a Deployment's pod template gets them at
//! `spec.template.spec`. Services are checked in `service_validation`.

use std::collections::BTreeSet;

use kube_apimachinery::validation::{ErrorList, FieldError, Operation, Path, content};

use super::probe_validation::container_handler_errors;
use super::{ConfigMap, Container, Event, PodSpec, Protocol, Secret, Volume};

/// The most a ConfigMap's data and binary data may hold together (`core.MaxSecretSize`).
pub const MAX_CONFIG_MAP_SIZE: u64 = 1024 * 1024;

/// `validateContainers` and `validateInitContainers` of `ValidatePodSpec`.
pub fn validate_custom_pod_spec(op: &Operation, path: &Path<'_>, obj: &PodSpec, old: Option<&PodSpec>) -> ErrorList {
    let mut errs = ErrorList::new();
    let mut names = BTreeSet::new();
    let containers = path.child("containers");
    if obj.containers.is_empty() {
        errs.push(FieldError::required(&containers, ""));
    }
    for (i, c) in obj.containers.iter().enumerate() {
        errs.extend(container_errors(&containers.index(i), c, &mut names));
    }
    let init = path.child("initContainers");
    for (i, c) in obj.init_containers.iter().flatten().enumerate() {
        errs.extend(container_errors(&init.index(i), c, &mut names));
    }
    let volumes = volume_errors(
        &path.child("volumes"),
        obj.volumes.as_deref().unwrap_or_default(),
        &mut errs,
    );
    for (list, containers) in [
        ("containers", Some(&obj.containers)),
        ("initContainers", obj.init_containers.as_ref()),
    ] {
        let at = path.child(list);
        for (i, c) in containers.into_iter().flatten().enumerate() {
            let container = at.index(i);
            mount_errors(&container.child("volumeMounts"), c, &volumes, &mut errs);
            container_handler_errors(
                &container,
                c,
                list == "initContainers",
                obj.termination_grace_period_seconds,
                obj.os.is_some(),
                &mut errs,
            );
        }
    }
    let _ = (op, old);
    errs
}

/// `ValidateVolumes`: each volume a unique DNS label with exactly one source; the names, for
/// the mounts to name.
fn volume_errors(path: &Path<'_>, volumes: &[Volume], errs: &mut ErrorList) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (i, v) in volumes.iter().enumerate() {
        let at = path.index(i);
        let name = at.child("name");
        if v.name.is_empty() {
            errs.push(FieldError::required(&name, ""));
        } else {
            for m in content::dns1123_label(&v.name) {
                errs.push(FieldError::invalid(&name, v.name.as_str(), m));
            }
            if !names.insert(v.name.clone()) {
                errs.push(FieldError::duplicate(&name, v.name.as_str()));
            }
        }
        // The sources are the members of VolumeSource, each an Option: count those given.
        let sources = match serde_json::to_value(&v.volume_source) {
            Ok(serde_json::Value::Object(m)) => m.len(),
            _ => 0,
        };
        if sources == 0 {
            errs.push(FieldError::required(&at, "must specify a volume type"));
        } else if sources > 1 {
            errs.push(FieldError::forbidden(&at, "may not specify more than 1 volume type"));
        }
    }
    names
}

/// `ValidateVolumeMounts`: each mount names a volume of the pod, at a path of its own.
fn mount_errors(path: &Path<'_>, c: &Container, volumes: &BTreeSet<String>, errs: &mut ErrorList) {
    let mut paths = BTreeSet::new();
    for (i, m) in c.volume_mounts.iter().flatten().enumerate() {
        let at = path.index(i);
        let name = at.child("name");
        if m.name.is_empty() {
            errs.push(FieldError::required(&name, ""));
        } else if !volumes.contains(&m.name) {
            errs.push(FieldError::not_found(&name, m.name.as_str()));
        }
        let mount_path = at.child("mountPath");
        if m.mount_path.is_empty() {
            errs.push(FieldError::required(&mount_path, ""));
        } else if !paths.insert(m.mount_path.clone()) {
            errs.push(FieldError::invalid(
                &mount_path,
                m.mount_path.as_str(),
                "must be unique",
            ));
        }
    }
}

/// One container: its name (a unique DNS label), image, ports, environment and resources.
fn container_errors(path: &Path<'_>, c: &Container, names: &mut BTreeSet<String>) -> ErrorList {
    let mut errs = ErrorList::new();
    let name = path.child("name");
    if c.name.is_empty() {
        errs.push(FieldError::required(&name, ""));
    } else {
        for m in content::dns1123_label(&c.name) {
            errs.push(FieldError::invalid(&name, c.name.as_str(), m));
        }
        if !names.insert(c.name.clone()) {
            errs.push(FieldError::duplicate(&name, c.name.as_str()));
        }
    }
    if c.image.as_deref().unwrap_or_default().trim().is_empty() {
        errs.push(FieldError::required(&path.child("image"), ""));
    }
    let ports = path.child("ports");
    let mut seen = BTreeSet::new();
    for (i, p) in c.ports.iter().flatten().enumerate() {
        let at = ports.index(i);
        let container_port = at.child("containerPort");
        if p.container_port == 0 {
            errs.push(FieldError::required(&container_port, ""));
        } else if !(1..=65535).contains(&p.container_port) {
            errs.push(FieldError::invalid(
                &container_port,
                i64::from(p.container_port),
                "must be between 1 and 65535, inclusive",
            ));
        }
        if let Some(host_port) = p.host_port.filter(|p| !(1..=65535).contains(p) && *p != 0) {
            errs.push(FieldError::invalid(
                &at.child("hostPort"),
                i64::from(host_port),
                "must be between 1 and 65535, inclusive",
            ));
        }
        let protocol = match p.protocol {
            None | Some(Protocol::ProtocolTCP) => "TCP",
            Some(Protocol::ProtocolUDP) => "UDP",
            Some(Protocol::ProtocolSCTP) => "SCTP",
        };
        if !seen.insert((p.container_port, protocol.to_string())) {
            errs.push(FieldError::duplicate(
                &at,
                kube_apimachinery::validation::BadValue::Other(format!("{}/{protocol}", p.container_port)),
            ));
        }
    }
    let env = path.child("env");
    for (i, e) in c.env.iter().flatten().enumerate() {
        let at = env.index(i);
        let name = at.child("name");
        if e.name.is_empty() {
            errs.push(FieldError::required(&name, ""));
        }
        for m in content::env_var_name(&e.name)
            .into_iter()
            .filter(|_| !e.name.is_empty())
        {
            errs.push(FieldError::invalid(&name, e.name.as_str(), m));
        }
    }
    if let Some(resources) = &c.resources {
        let requests_path = path.child("resources");
        let requests_path = requests_path.child("requests");
        for (resource, request) in resources.requests.iter().flatten() {
            let limit = resources.limits.as_ref().and_then(|l| l.get(resource));
            let (Some(limit), Some(r), Some(l)) = (
                limit,
                content::quantity_value(&request.0),
                limit.and_then(|l| content::quantity_value(&l.0)),
            ) else {
                continue;
            };
            if r > l {
                errs.push(FieldError::invalid(
                    &requests_path.key(resource),
                    request.0.as_str(),
                    format!("must be less than or equal to {resource} limit of {}", limit.0),
                ));
            }
        }
    }
    errs
}

/// `ValidateConfigMap` and `ValidateConfigMapUpdate`: keys, the total size, and immutability.
pub fn validate_custom_config_map(
    op: &Operation,
    path: &Path<'_>,
    obj: &ConfigMap,
    old: Option<&ConfigMap>,
) -> ErrorList {
    let mut errs = ErrorList::new();
    let mut total = 0u64;
    let data = path.child("data");
    for (k, v) in obj.data.iter().flatten() {
        for m in content::config_map_key(k) {
            errs.push(FieldError::invalid(&data.key(k), k.as_str(), m));
        }
        total += v.len() as u64;
    }
    let binary = path.child("binaryData");
    for (k, v) in obj.binary_data.iter().flatten() {
        for m in content::config_map_key(k) {
            errs.push(FieldError::invalid(&binary.key(k), k.as_str(), m));
        }
        if obj.data.as_ref().is_some_and(|d| d.contains_key(k)) {
            errs.push(FieldError::invalid(
                &data.key(k),
                k.as_str(),
                "duplicate of key present in binaryData",
            ));
        }
        total += v.0.len() as u64;
    }
    if total > MAX_CONFIG_MAP_SIZE {
        errs.push(FieldError::too_long(&Path::new(""), MAX_CONFIG_MAP_SIZE));
    }
    if let Some(old) = old.filter(|o| op.is_update() && o.immutable == Some(true)) {
        let why = "field is immutable when `immutable` is set";
        if obj.immutable != Some(true) {
            errs.push(FieldError::forbidden(&path.child("immutable"), why));
        }
        if obj.data != old.data {
            errs.push(FieldError::forbidden(&data, why));
        }
        if obj.binary_data != old.binary_data {
            errs.push(FieldError::forbidden(&binary, why));
        }
    }
    errs
}

/// `ValidateSecret` and `ValidateSecretUpdate`: keys and the 1 MiB total as a ConfigMap's, the
/// keys each built-in type requires, and `type` (and, once `immutable`, the data) unchanged.
pub fn validate_custom_secret(op: &Operation, path: &Path<'_>, obj: &Secret, old: Option<&Secret>) -> ErrorList {
    let mut errs = ErrorList::new();
    let data_path = path.child("data");
    // The update's checks come first, as ValidateSecretUpdate runs them before ValidateSecret.
    if let Some(old) = old.filter(|_| op.is_update()) {
        if obj.type_ != old.type_ {
            errs.push(FieldError::invalid(
                &path.child("type"),
                obj.type_.clone().unwrap_or_default(),
                "field is immutable",
            ));
        }
        if old.immutable == Some(true) {
            let why = "field is immutable when `immutable` is set";
            if obj.immutable != Some(true) {
                errs.push(FieldError::forbidden(&path.child("immutable"), why));
            }
            if obj.data != old.data {
                errs.push(FieldError::forbidden(&data_path, why));
            }
        }
    }
    let empty = Default::default();
    let data = obj.data.as_ref().unwrap_or(&empty);
    let mut total = 0u64;
    for (k, v) in data {
        for m in content::config_map_key(k) {
            errs.push(FieldError::invalid(&data_path.key(k), k.as_str(), m));
        }
        total += v.0.len() as u64;
    }
    if total > MAX_CONFIG_MAP_SIZE {
        errs.push(FieldError::too_long(&data_path, MAX_CONFIG_MAP_SIZE));
    }
    // Go names two of these paths `data[%s][key]`, a format string it never fills; the
    // messages are kept as clients see them from Kubernetes.
    let unfilled = Path::new("data[%s]");
    let required = |key: &str, errs: &mut ErrorList, at: &Path<'_>| {
        errs.push(FieldError::required(&at.key(key), ""));
    };
    match obj.type_.as_deref().unwrap_or_default() {
        "kubernetes.io/service-account-token" => {
            let name = obj
                .metadata
                .annotations
                .as_ref()
                .and_then(|a| a.get("kubernetes.io/service-account.name"));
            if name.is_none_or(|n| n.is_empty()) {
                let metadata = path.child("metadata");
                let annotations = metadata.child("annotations");
                required("kubernetes.io/service-account.name", &mut errs, &annotations);
            }
        }
        kind @ ("kubernetes.io/dockercfg" | "kubernetes.io/dockerconfigjson") => {
            let key = if kind == "kubernetes.io/dockercfg" {
                ".dockercfg"
            } else {
                ".dockerconfigjson"
            };
            match data.get(key) {
                None => required(key, &mut errs, &data_path),
                Some(bytes) => {
                    if let Err(e) = serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(&bytes.0) {
                        errs.push(FieldError::invalid(
                            &data_path.key(key),
                            "<secret contents redacted>",
                            e.to_string(),
                        ));
                    }
                }
            }
        }
        "kubernetes.io/basic-auth" if !data.contains_key("username") && !data.contains_key("password") => {
            required("username", &mut errs, &unfilled);
            required("password", &mut errs, &unfilled);
        }
        "kubernetes.io/ssh-auth" if data.get("ssh-privatekey").is_none_or(|k| k.0.is_empty()) => {
            required("ssh-privatekey", &mut errs, &unfilled);
        }
        "kubernetes.io/tls" => {
            for key in ["tls.crt", "tls.key"] {
                if !data.contains_key(key) {
                    required(key, &mut errs, &data_path);
                }
            }
        }
        _ => {}
    }
    errs
}

/// The longest reason, action and reportingInstance an Event may have (Kubernetes'
/// `ReasonLengthLimit`, `ActionLengthLimit` and `ReportingInstanceLengthLimit`).
const EVENT_FIELD_LIMIT: usize = 128;

/// The longest message of a new-style Event (`NoteLengthLimit`).
const EVENT_NOTE_LIMIT: usize = 1024;

/// `legacyValidateEvent`, all that Kubernetes' `ValidateEventCreate` checks of a core/v1 Event
/// (and of every update). An old-style Event (no eventTime) is in its object's namespace, or for
/// a cluster-scoped object in none or `default`; a new-style one names its reporting component
/// and instance, action and reason, within Kubernetes' lengths.
pub fn validate_custom_event(op: &Operation, path: &Path<'_>, obj: &Event, old: Option<&Event>) -> ErrorList {
    let mut errs = ErrorList::new();
    let namespace = obj.metadata.namespace.as_deref().unwrap_or("");
    let involved = obj.involved_object.namespace.as_deref().unwrap_or_default();
    let mismatch = || {
        FieldError::invalid(
            &path.child("involvedObject").child("namespace"),
            involved,
            "does not match event.namespace",
        )
    };
    if obj.event_time.is_none() {
        let matches = match involved {
            "" => namespace.is_empty() || namespace == "default",
            ns => namespace == ns,
        };
        if !matches {
            errs.push(mismatch());
        }
    } else {
        if involved.is_empty() && namespace != "default" && namespace != "kube-system" {
            errs.push(mismatch());
        }
        let component = path.child("reportingComponent");
        if obj.reporting_component.is_empty() {
            errs.push(FieldError::required(&component, ""));
        }
        for m in content::qualified_name(&obj.reporting_component) {
            errs.push(FieldError::invalid(&component, obj.reporting_component.as_str(), m));
        }
        let fields = [
            ("reportingInstance", Some(obj.reporting_instance.as_str())),
            ("action", obj.action.as_deref()),
            ("reason", obj.reason.as_deref()),
        ];
        for (name, value) in fields {
            let value = value.unwrap_or("");
            if value.is_empty() {
                errs.push(FieldError::required(&path.child(name), ""));
            }
            if value.len() > EVENT_FIELD_LIMIT {
                let detail = format!("can have at most {EVENT_FIELD_LIMIT} characters");
                errs.push(FieldError::invalid(&path.child(name), "", detail));
            }
        }
        if obj.message.as_deref().unwrap_or("").len() > EVENT_NOTE_LIMIT {
            let detail = format!("can have at most {EVENT_NOTE_LIMIT} characters");
            errs.push(FieldError::invalid(&path.child("message"), "", detail));
        }
    }
    if !namespace.is_empty() {
        for m in content::dns1123_subdomain(namespace) {
            errs.push(FieldError::invalid(&path.child("namespace"), namespace, m));
        }
    }
    let _ = (op, old);
    errs
}
