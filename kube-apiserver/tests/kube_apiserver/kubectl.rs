//! kubectl (the real one, 1.32) against the sample server on loopback: discovery, create, get in
//! every output, selectors, label, annotate, patch, apply, watch, delete and wait.

use crate::support;

use support::kubectl::{Backend, Kubectl};

const NAMESPACE: &str = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: default\n";

const DEPLOYMENT: &str = "apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.25
        ports:
        - containerPort: 80
";

#[test]
fn discovery_lists_every_group_and_resource() {
    let k = Kubectl::new("discovery");
    let versions = k.ok(&["api-versions"]);
    for gv in [
        "apps/v1",
        "batch/v1",
        "coordination.k8s.io/v1",
        "events.k8s.io/v1",
        "v1",
        "apiextensions.k8s.io/v1",
        "widgets.example.dev/v1",
        "widgets.example.dev/v1alpha1",
    ] {
        assert!(versions.lines().any(|l| l == gv), "{gv} in {versions}");
    }
    // Removed versions are never served, Kubernetes' own betas only when --runtime-config asks.
    for gv in ["apps/v1beta1", "apps/v1beta2", "resource.k8s.io/v1beta2"] {
        assert!(!versions.lines().any(|l| l == gv), "{gv} in {versions}");
    }
    let resources = k.ok(&["api-resources", "--no-headers"]);
    let row = |name: &str| {
        resources
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("{name} in {resources}"))
            .to_string()
    };
    assert_eq!(
        row("deployments").split_whitespace().collect::<Vec<_>>(),
        ["deployments", "deploy", "apps/v1", "true", "Deployment"]
    );
    assert_eq!(
        row("namespaces").split_whitespace().collect::<Vec<_>>(),
        ["namespaces", "ns", "v1", "false", "Namespace"]
    );
    assert!(row("widgets").contains("widgets.example.dev/v1"));
    // explain reads the served OpenAPI v3 document of the group-version.
    let explained = k.ok(&["explain", "deployment.spec.strategy"]);
    assert!(
        explained.contains("FIELD: strategy <DeploymentStrategy>")
            && explained.contains("rollingUpdate\t<RollingUpdateDeployment>"),
        "{explained}"
    );
    let wide = k.ok(&["api-resources", "-o", "wide", "--api-group=apps"]);
    assert!(
        wide.contains("create,delete,deletecollection,get,list,patch,update,watch"),
        "{wide}"
    );
}

#[test]
fn create_get_label_patch_apply_delete() {
    crud(Kubectl::new("crud"));
}

#[test]
fn create_get_label_patch_apply_delete_on_etcd() {
    crud(Kubectl::on("crud-etcd", Backend::Etcd));
}

fn crud(k: Kubectl) {
    // The system namespaces are there from the start, as in a cluster.
    let ns = k.file("ns.yaml", NAMESPACE);
    let exists = k.run(&["create", "-f", &ns]);
    assert!(
        String::from_utf8_lossy(&exists.stderr).contains("Error from server (AlreadyExists)"),
        "{exists:?}"
    );
    let deploy = k.file("deploy.yaml", DEPLOYMENT);
    assert_eq!(k.ok(&["create", "-f", &deploy]), "deployment.apps/web created\n");
    let again = k.run(&["create", "-f", &deploy]);
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("Error from server (AlreadyExists): error when creating"),
        "{again:?}"
    );
    // The table, YAML and JSON views; defaults of apps/v1 were applied on the way in.
    let table = k.ok(&["get", "deployments"]);
    let header: Vec<&str> = table.lines().next().unwrap_or("").split_whitespace().collect();
    assert_eq!(header, ["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"], "{table}");
    assert!(table.lines().nth(1).unwrap_or("").starts_with("web    0/2 "), "{table}");
    let wide = k.ok(&["get", "deploy", "-o", "wide"]);
    assert!(
        wide.contains("CONTAINERS") && wide.contains("nginx:1.25") && wide.contains("app=web"),
        "{wide}"
    );
    let namespaces = k.ok(&[
        "get",
        "ns",
        "--no-headers",
        "-o",
        "custom-columns=NAME:.metadata.name,PHASE:.status.phase",
    ]);
    let namespaces: Vec<Vec<&str>> = namespaces.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(
        namespaces,
        [
            ["default", "Active"],
            ["kube-node-lease", "Active"],
            ["kube-public", "Active"],
            ["kube-system", "Active"]
        ],
    );
    // apps/v1beta1 went in Kubernetes 1.16, as its lifecycle records.
    let old = k.run(&["get", "deployments.v1beta1.apps"]);
    assert!(!old.status.success(), "{}", String::from_utf8_lossy(&old.stdout));
    // A deprecated version still served warns, as the lifecycle generator recorded it.
    let deprecated = k.run(&["get", "widgets.v1alpha1.widgets.example.dev"]);
    let warning = String::from_utf8_lossy(&deprecated.stderr);
    assert!(
        warning.contains(
            "Warning: widgets.example.dev/v1alpha1 Widget is deprecated in v1.34+, unavailable in v1.37+; use widgets.example.dev/v1 Widget"
        ),
        "{warning}"
    );
    let yaml = k.ok(&["get", "deploy", "web", "-o", "yaml"]);
    assert!(
        yaml.contains("progressDeadlineSeconds: 600") && yaml.contains("uid: "),
        "{yaml}"
    );
    let json: serde_json::Value = serde_json::from_str(&k.ok(&["get", "deploy", "web", "-o", "json"])).unwrap();
    assert_eq!(json["metadata"]["generation"], 1);
    assert_eq!(json["spec"]["strategy"]["type"], "RollingUpdate");
    // Selectors and all namespaces.
    assert!(
        k.ok(&["get", "deploy", "-A", "-l", "app=web", "--no-headers"])
            .starts_with("default ")
    );
    assert_eq!(k.ok(&["get", "deploy", "-l", "app=other", "--no-headers"]), "");
    assert!(
        k.ok(&["get", "deploy", "--field-selector", "metadata.name=web", "-o", "name"])
            .contains("deployment.apps/web")
    );
    // Label, annotate, merge and JSON patches; the spec change bumps the generation.
    k.ok(&["label", "deploy", "web", "tier=front"]);
    k.ok(&["annotate", "deploy", "web", "note=hi"]);
    k.ok(&[
        "patch",
        "deploy",
        "web",
        "--type=merge",
        "-p",
        r#"{"spec":{"replicas":3}}"#,
    ]);
    k.ok(&[
        "patch",
        "deploy",
        "web",
        "--type=json",
        "-p",
        r#"[{"op":"replace","path":"/spec/replicas","value":4}]"#,
    ]);
    let got = k.ok(&[
        "get",
        "deploy",
        "web",
        "-o",
        "jsonpath={.spec.replicas} {.metadata.generation} {.metadata.labels.tier} {.metadata.annotations.note}",
    ]);
    assert_eq!(got, "4 3 front hi");
    // Delete, then wait for it to be gone.
    assert_eq!(k.ok(&["delete", "deploy", "web"]), "deployment.apps \"web\" deleted\n");
    k.ok(&["wait", "--for=delete", "deploy/web", "--timeout=10s"]);
    let gone = k.run(&["get", "deploy", "web"]);
    assert_eq!(
        String::from_utf8_lossy(&gone.stderr),
        "Error from server (NotFound): deployments.apps \"web\" not found\n"
    );
    // Client-side apply creates, then finds nothing to change.
    assert_eq!(k.ok(&["apply", "-f", &deploy]), "deployment.apps/web created\n");
    assert_eq!(k.ok(&["apply", "-f", &deploy]), "deployment.apps/web unchanged\n");
}

#[test]
fn apply_diff_edit_scale_and_strategic_patches() {
    apply(Kubectl::new("apply"));
}

#[test]
fn apply_diff_edit_scale_and_strategic_patches_on_etcd() {
    apply(Kubectl::on("apply-etcd", Backend::Etcd));
}

fn apply(k: Kubectl) {
    let deploy = k.file("deploy.yaml", DEPLOYMENT);
    k.ok(&["apply", "-f", &deploy]);
    let changed = k.file(
        "changed.yaml",
        &DEPLOYMENT
            .replace("nginx:1.25", "nginx:1.26")
            .replace("replicas: 2", "replicas: 3"),
    );
    // diff (a server-side dry run) shows the change and stores nothing.
    let diff = k.run(&["diff", "-f", &changed]);
    let text = String::from_utf8_lossy(&diff.stdout);
    assert_eq!(
        diff.status.code(),
        Some(1),
        "diff exits 1 when there are differences: {diff:?}"
    );
    assert!(
        text.contains("-  replicas: 2") && text.contains("+  replicas: 3"),
        "{text}"
    );
    assert!(text.contains("+      - image: nginx:1.26"), "{text}");
    assert_eq!(k.ok(&["get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"]), "2");
    // The second apply is a strategic merge patch: the container merges by name, its port stays.
    assert_eq!(k.ok(&["apply", "-f", &changed]), "deployment.apps/web configured\n");
    let got = k.ok(&["get", "deploy", "web", "-o", "jsonpath={.spec.replicas} {.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].ports[0].containerPort}"]);
    assert_eq!(got, "3 nginx:1.26 80");
    k.ok(&[
        "patch",
        "deploy",
        "web",
        "-p",
        r#"{"spec":{"template":{"spec":{"containers":[{"name":"side","image":"busybox"}]}}}}"#,
    ]);
    assert_eq!(
        k.ok(&[
            "get",
            "deploy",
            "web",
            "-o",
            "jsonpath={.spec.template.spec.containers[*].name}"
        ]),
        "web side"
    );
    // edit, with an editor that changes the replicas.
    let editor = k.file("editor.sh", "#!/bin/sh\nsed -i 's/replicas: 3/replicas: 7/' \"$1\"\n");
    std::fs::set_permissions(&editor, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let edited = k
        .command(&["edit", "deploy", "web"])
        .env("EDITOR", &editor)
        .output()
        .unwrap();
    assert!(edited.status.success(), "{edited:?}");
    assert_eq!(k.ok(&["get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"]), "7");
    // scale goes through /scale (autoscaling/v1 Scale).
    assert_eq!(
        k.ok(&["scale", "deploy", "web", "--replicas=2"]),
        "deployment.apps/web scaled\n"
    );
    let scale: serde_json::Value =
        serde_json::from_str(&k.ok(&["get", "--raw", "/apis/apps/v1/namespaces/default/deployments/web/scale"]))
            .unwrap();
    assert_eq!(
        (
            scale["kind"].as_str(),
            scale["spec"]["replicas"].as_i64(),
            scale["status"]["selector"].as_str()
        ),
        (Some("Scale"), Some(2), Some("app=web"))
    );
}

#[test]
fn get_watch_sees_changes_in_order() {
    watch(Kubectl::new("watch"));
}

#[test]
fn get_watch_sees_changes_in_order_on_etcd() {
    watch(Kubectl::on("watch-etcd", Backend::Etcd));
}

fn watch(k: Kubectl) {
    k.ok(&["create", "-f", &k.file("deploy.yaml", DEPLOYMENT)]);
    let watch = k
        .command(&[
            "get",
            "deploy",
            "-w",
            "--output-watch-events",
            "-o",
            "jsonpath={.type} {.object.spec.replicas}{\"\\n\"}",
            "--request-timeout=8s",
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The default output: the watch's events arrive as Table rows with the Deployment columns.
    let table = k
        .command(&["get", "deploy", "-w", "--request-timeout=8s"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    for r in ["3", "4"] {
        k.ok(&[
            "patch",
            "deploy",
            "web",
            "--type=merge",
            "-p",
            &format!(r#"{{"spec":{{"replicas":{r}}}}}"#),
        ]);
    }
    k.ok(&["delete", "deploy", "web"]);
    let out = watch.wait_with_output().unwrap();
    let events = String::from_utf8_lossy(&out.stdout);
    assert_eq!(events, "ADDED 2\nMODIFIED 3\nMODIFIED 4\nDELETED 4\n");
    let out = table.wait_with_output().unwrap();
    let rows: Vec<Vec<String>> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split_whitespace().take(2).map(str::to_string).collect())
        .collect();
    let ready: Vec<&str> = rows.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(ready[..4], ["READY", "0/2", "0/3", "0/4"], "{rows:?}");
}

#[test]
fn crds_apply_and_widgets_are_served_through_kubectl() {
    let k = Kubectl::new("widgets");
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let crds = format!("{root}/generated/crds/");
    let applied = k.ok(&["apply", "-f", &crds]);
    assert_eq!(
        applied,
        "customresourcedefinition.apiextensions.k8s.io/widgetclasses.widgets.example.dev created\n\
         customresourcedefinition.apiextensions.k8s.io/widgets.widgets.example.dev created\n"
    );
    assert!(
        k.ok(&["get", "crds", "-o", "name"])
            .contains("widgets.widgets.example.dev")
    );
    k.ok(&[
        "create",
        "-f",
        &k.file("ns.yaml", &NAMESPACE.replace("default", "production")),
    ]);
    // The example is v1alpha1 (deprecated: a warning), stored and read back as v1, whose paused
    // field comes from v1alpha1's annotation.
    let manifest = format!("{root}/apis/examples/manifests/widgets-v1alpha1-widget.yaml");
    let out = k.run(&["apply", "-f", &manifest]);
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("widgets.example.dev/v1alpha1 Widget is deprecated"));
    let got = k.ok(&[
        "get",
        "wd",
        "shop-widgets",
        "-n",
        "production",
        "-o",
        "jsonpath={.apiVersion} {.spec.paused} {.spec.replicas}",
    ]);
    assert_eq!(got, "widgets.example.dev/v1 true 3");
    assert_eq!(
        k.ok(&["scale", "wd", "shop-widgets", "-n", "production", "--replicas=5"]),
        "widget.widgets.example.dev/shop-widgets scaled\n"
    );
    assert_eq!(
        k.ok(&[
            "get",
            "wd",
            "shop-widgets",
            "-n",
            "production",
            "-o",
            "jsonpath={.spec.replicas}"
        ]),
        "5"
    );
    // The CRD's printer columns, from the REST mapping: Size only with -o wide.
    let table = k.ok(&["get", "wd", "-n", "production"]);
    let lines: Vec<Vec<&str>> = table.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(lines[0], ["NAME", "REPLICAS", "READY", "AGE"], "{table}");
    // Ready is unset (an empty cell), Age the time since creation.
    assert_eq!(lines[1].len(), 3, "{table}");
    assert_eq!(&lines[1][..2], ["shop-widgets", "5"], "{table}");
    assert!(lines[1][2].ends_with('s'), "{table}");
    let wide = k.ok(&["get", "wd", "-n", "production", "-o", "wide"]);
    let header: Vec<&str> = wide.lines().next().unwrap().split_whitespace().collect();
    assert_eq!(header, ["NAME", "REPLICAS", "READY", "SIZE", "AGE"], "{wide}");
    assert!(wide.lines().nth(1).unwrap().contains(" Large "), "{wide}");
}

#[test]
fn server_side_apply_owns_fields_and_conflicts() {
    server_side_apply(Kubectl::new("ssa"));
}

#[test]
fn server_side_apply_owns_fields_and_conflicts_on_etcd() {
    server_side_apply(Kubectl::on("ssa-etcd", Backend::Etcd));
}

fn server_side_apply(k: Kubectl) {
    let deploy = k.file("deploy.yaml", DEPLOYMENT);
    assert_eq!(
        k.ok(&["apply", "--server-side", "-f", &deploy]),
        "deployment.apps/web serverside-applied\n"
    );
    let json: serde_json::Value =
        serde_json::from_str(&k.ok(&["get", "deploy", "web", "-o", "json", "--show-managed-fields"])).unwrap();
    let entry = &json["metadata"]["managedFields"][0];
    assert_eq!(
        (entry["manager"].as_str(), entry["operation"].as_str()),
        (Some("kubectl"), Some("Apply"))
    );
    assert!(
        entry["fieldsV1"]["f:spec"]["f:template"]["f:spec"]["f:containers"]["k:{\"name\":\"web\"}"]["f:image"]
            .is_object(),
        "{entry}"
    );
    // Another manager changing an owned field conflicts, and takes it with --force-conflicts.
    let changed = k.file("changed.yaml", &DEPLOYMENT.replace("replicas: 2", "replicas: 3"));
    let conflict = k.run(&["apply", "--server-side", "--field-manager=other", "-f", &changed]);
    let stderr = String::from_utf8_lossy(&conflict.stderr);
    assert!(
        !conflict.status.success()
            && stderr.contains("Apply failed with 1 conflict: conflict with \"kubectl\": .spec.replicas"),
        "{stderr}"
    );
    assert_eq!(k.ok(&["get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"]), "2");
    k.ok(&[
        "apply",
        "--server-side",
        "--field-manager=other",
        "--force-conflicts",
        "-f",
        &changed,
    ]);
    assert_eq!(k.ok(&["get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"]), "3");
    // The first manager re-applies without replicas: it no longer owns them, so they stay.
    let without = k.file("without.yaml", &DEPLOYMENT.replace("  replicas: 2\n", ""));
    k.ok(&["apply", "--server-side", "-f", &without]);
    assert_eq!(k.ok(&["get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"]), "3");
    // A plain patch takes ownership of what it changes (operation Update), so the applier that owned
    // the field conflicts with the patcher when it applies again.
    k.ok(&[
        "patch",
        "deploy",
        "web",
        "--type=merge",
        "--field-manager=patcher",
        "-p",
        r#"{"spec":{"replicas":5}}"#,
    ]);
    let conflict = k.run(&["apply", "--server-side", "--field-manager=other", "-f", &changed]);
    let stderr = String::from_utf8_lossy(&conflict.stderr);
    assert!(
        stderr.contains("conflict with \"patcher\" using apps/v1: .spec.replicas"),
        "{stderr}"
    );
}

#[test]
fn typed_commands_speak_protobuf() {
    typed(Kubectl::new("typed"));
}

#[test]
fn typed_commands_speak_protobuf_on_etcd() {
    typed(Kubectl::on("typed-etcd", Backend::Etcd));
}

/// kubectl's typed clients (`create namespace|configmap|deployment`, `describe`) send protobuf
/// bodies and ask for protobuf back; what they print must match what the JSON path stores.
fn typed(k: Kubectl) {
    let out = k.run(&["create", "namespace", "shop", "-v=8"]);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{log}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "namespace/shop created\n");
    assert_eq!(
        log.matches("Content-Type: application/vnd.kubernetes.protobuf").count(),
        2,
        "a protobuf request and a protobuf response: {log}"
    );
    let cm: serde_json::Value = serde_json::from_str(&k.ok(&[
        "create",
        "configmap",
        "settings",
        "-n",
        "shop",
        "--from-literal=mode=fast",
        "-o",
        "json",
    ]))
    .unwrap();
    assert_eq!(cm["data"]["mode"], "fast");
    assert_eq!(cm["metadata"]["namespace"], "shop");
    assert!(
        cm["metadata"].get("generation").is_none(),
        "a ConfigMap has no spec to count: {cm}"
    );
    let created: serde_json::Value = serde_json::from_str(&k.ok(&[
        "create",
        "deployment",
        "web",
        "-n",
        "shop",
        "--image=nginx:1.27",
        "--replicas=2",
        "--port=80",
        "-o",
        "json",
    ]))
    .unwrap();
    assert_eq!(created["spec"]["replicas"], 2);
    assert_eq!(created["spec"]["strategy"]["type"], "RollingUpdate", "defaulted");
    let port = &created["spec"]["template"]["spec"]["containers"][0]["ports"][0];
    assert_eq!(port["containerPort"], 80);
    assert!(port.get("hostPort").is_none(), "{port}");
    // The JSON path (kubectl get reads unstructured JSON) shows the same object; Go's typed
    // printer writes the template's zero creationTimestamp as null, as it does against Kubernetes.
    let mut created = created;
    let template_meta = &mut created["spec"]["template"]["metadata"];
    assert_eq!(template_meta["creationTimestamp"], serde_json::Value::Null);
    template_meta.as_object_mut().unwrap().remove("creationTimestamp");
    let read: serde_json::Value =
        serde_json::from_str(&k.ok(&["get", "deployment", "web", "-n", "shop", "-o", "json"])).unwrap();
    assert_eq!(read["spec"], created["spec"]);
    assert_eq!(read["metadata"]["uid"], created["metadata"]["uid"]);
    let described = k.ok(&["describe", "deployment", "web", "-n", "shop"]);
    assert!(
        described.contains("Replicas:               2 desired") && described.contains("nginx:1.27"),
        "{described}"
    );
    assert_eq!(k.ok(&["delete", "namespace", "shop"]), "namespace \"shop\" deleted\n");
}

/// kubectl prints a 422 as Kubernetes' Status reads: `The Deployment "bad" is invalid: ...`, one
/// line per cause, for apply and patch alike.
#[test]
fn invalid_objects_are_refused_with_every_field_error() {
    let k = Kubectl::new("invalid");
    k.ok(&["apply", "-f", &k.file("ns.yaml", NAMESPACE)]);
    let bad = DEPLOYMENT
        .replace("name: web\n  labels", "name: bad\n  labels")
        .replace("replicas: 2", "replicas: -5");
    let out = k.run(&["apply", "-f", &k.file("bad.yaml", &bad)]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "The Deployment \"bad\" is invalid: spec.replicas: Invalid value: -5: must be greater than or equal to 0"
        ),
        "{stderr}"
    );
    k.ok(&["create", "-f", &k.file("web.yaml", DEPLOYMENT)]);
    // kubectl checks a label it is given itself; a patch reaches the server as written.
    let out = k.run(&[
        "patch",
        "deployment/web",
        "--type=merge",
        "-p",
        r#"{"metadata":{"labels":{"bad":"not ok!"}}}"#,
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("is invalid: metadata.labels: Invalid value: \"not ok!\""),
        "{stderr}"
    );
}
