//! Secrets, Jobs and CronJobs as kube-apiserver's strategies, defaults and hand-written
//! validation make them: `stringData` folded into `data`, the keys each Secret type requires,
//! `type` and immutable data kept; a Job's generated selector and defaults; a CronJob's schedule
//! checked as Kubernetes' cron parser reads it; Pods Pending, bound, resized and evicted as
//! their budgets allow; CSRs approved. Answers compared with kube-apiserver 1.36's words.

use crate::support;

use reqwest::StatusCode;
use serde_json::{Value, json};

use support::api::Api;

#[tokio::test]
async fn secrets_fold_string_data_and_check_their_type() {
    let api = Api::new().await;
    let secrets = "/api/v1/namespaces/ns/secrets";
    let secret = |name: &str, extra: Value| {
        let mut s = json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name}});
        s.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        s.to_string()
    };
    let (code, created) = api
        .send(
            "POST",
            secrets,
            "application/json",
            secret(
                "plain",
                json!({"stringData": {"user": "admin"}, "data": {"pass": "cw=="}}),
            ),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(created["type"], "Opaque");
    assert_eq!(created["data"], json!({"pass": "cw==", "user": "YWRtaW4="}));
    assert!(created.get("stringData").is_none(), "{created}");

    let refusals = [
        (
            json!({"type": "kubernetes.io/tls", "data": {"tls.crt": "YQ=="}}),
            "Secret \"s\" is invalid: data[tls.key]: Required value",
        ),
        (
            json!({"type": "kubernetes.io/basic-auth"}),
            "Secret \"s\" is invalid: [data[%s][username]: Required value, data[%s][password]: Required value]",
        ),
        (
            json!({"type": "kubernetes.io/dockerconfigjson"}),
            "Secret \"s\" is invalid: data[.dockerconfigjson]: Required value",
        ),
        (
            json!({"type": "kubernetes.io/service-account-token"}),
            "Secret \"s\" is invalid: metadata.annotations[kubernetes.io/service-account.name]: Required value",
        ),
        (
            json!({"data": {"a b": "YQ=="}}),
            "Secret \"s\" is invalid: data[a b]: Invalid value: \"a b\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
        ),
    ];
    for (body, message) in refusals {
        let (code, refused) = api.send("POST", secrets, "application/json", secret("s", body)).await;
        assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["message"], message);
    }

    // The type never changes; an immutable Secret's data neither.
    let mut changed = created.clone();
    changed["type"] = json!("example.com/custom");
    let (code, refused) = api
        .send(
            "PUT",
            &format!("{secrets}/plain"),
            "application/json",
            changed.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused["message"],
        "Secret \"plain\" is invalid: type: Invalid value: \"example.com/custom\": field is immutable"
    );
    let plain = format!("{secrets}/plain");
    let patch = |body: Value| api.send("PATCH", &plain, "application/merge-patch+json", body.to_string());
    assert_eq!(patch(json!({"immutable": true})).await.0, StatusCode::OK);
    let (code, refused) = patch(json!({"stringData": {"user": "root"}})).await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused["message"],
        "Secret \"plain\" is invalid: data: Forbidden: field is immutable when `immutable` is set"
    );
}

#[tokio::test]
async fn jobs_get_a_generated_selector_and_cron_jobs_a_checked_schedule() {
    let api = Api::new().await;
    let job = json!({
        "apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "pi"},
        "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "pi", "image": "perl:5.34"}]}}},
    });
    let (code, created) = api
        .send(
            "POST",
            "/apis/batch/v1/namespaces/ns/jobs",
            "application/json",
            job.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let uid = created["metadata"]["uid"].as_str().unwrap();
    let spec = &created["spec"];
    assert_eq!(
        spec["selector"],
        json!({"matchLabels": {"batch.kubernetes.io/controller-uid": uid}})
    );
    assert_eq!(
        spec["template"]["metadata"]["labels"],
        json!({
            "batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": "pi",
            "controller-uid": uid, "job-name": "pi",
        })
    );
    for (field, value) in [
        ("completions", json!(1)),
        ("parallelism", json!(1)),
        ("backoffLimit", json!(6)),
        ("completionMode", json!("NonIndexed")),
        ("suspend", json!(false)),
        ("podReplacementPolicy", json!("TerminatingOrFailed")),
    ] {
        assert_eq!(spec[field], value, "{field} in {created}");
    }
    // The pod template is defaulted as a Pod's is.
    assert_eq!(
        spec["template"]["spec"]["containers"][0]["imagePullPolicy"],
        "IfNotPresent"
    );
    assert_eq!(spec["template"]["spec"]["dnsPolicy"], "ClusterFirst");

    // A Job's pods do not restart (an unset policy defaults to Always), counts are not negative,
    // and a running Job keeps its pod template.
    let mut bad = job.clone();
    bad["metadata"]["name"] = json!("bad");
    bad["spec"]["template"]["spec"]["restartPolicy"] = json!(null);
    bad["spec"]["backoffLimit"] = json!(-1);
    let (code, refused) = api
        .send(
            "POST",
            "/apis/batch/v1/namespaces/ns/jobs",
            "application/json",
            bad.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused["message"],
        "Job.batch \"bad\" is invalid: [spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0, spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\"]"
    );
    let mut changed = created.clone();
    changed["spec"]["template"]["spec"]["containers"][0]["image"] = json!("perl:5.36");
    let (code, refused) = api
        .send(
            "PUT",
            "/apis/batch/v1/namespaces/ns/jobs/pi",
            "application/json",
            changed.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(
        refused["message"],
        "Job.batch \"pi\" is invalid: spec.template: Invalid value: field is immutable"
    );

    let cron = |schedule: &str| {
        json!({
            "apiVersion": "batch/v1", "kind": "CronJob", "metadata": {"name": "tick"},
            "spec": {"schedule": schedule, "jobTemplate": {"spec": job["spec"].clone()}},
        })
        .to_string()
    };
    let cron_jobs = "/apis/batch/v1/namespaces/ns/cronjobs";
    let (code, refused) = api
        .send("POST", cron_jobs, "application/json", cron("61 * * * *"))
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused["message"],
        "CronJob.batch \"tick\" is invalid: spec.schedule: Invalid value: \"61 * * * *\": end of range (61) above maximum (59): 61"
    );
    let (code, refused) = api
        .send("POST", cron_jobs, "application/json", cron("TZ=UTC 0 * * * *"))
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused["message"],
        "CronJob.batch \"tick\" is invalid: spec.schedule: Invalid value: \"TZ=UTC 0 * * * *\": cannot use TZ or CRON_TZ in schedule, use timeZone field instead"
    );
    let (code, created) = api
        .send("POST", cron_jobs, "application/json", cron("*/5 * * * *"))
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(created["spec"]["concurrencyPolicy"], "Allow");
    let mut selected: Value = serde_json::from_str(&cron("*/5 * * * *")).unwrap();
    selected["metadata"]["name"] = json!("selected");
    selected["spec"]["jobTemplate"]["spec"]["selector"] = json!({"matchLabels": {"a": "b"}});
    let (code, refused) = api
        .send("POST", cron_jobs, "application/json", selected.to_string())
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused["message"],
        "CronJob.batch \"selected\" is invalid: spec.jobTemplate.spec.selector: Invalid value: {\"matchLabels\":{\"a\":\"b\"}}: `selector` will be auto-generated"
    );
    assert_eq!(created["spec"]["successfulJobsHistoryLimit"], 3);
    assert_eq!(created["spec"]["failedJobsHistoryLimit"], 1);
    // Job defaults are a Job's, not its template's (SetDefaults_Job): the pod template's are.
    let template = &created["spec"]["jobTemplate"]["spec"];
    assert!(template.get("backoffLimit").is_none(), "{created}");
    assert_eq!(
        template["template"]["spec"]["containers"][0]["imagePullPolicy"],
        "IfNotPresent"
    );
}

#[tokio::test]
async fn pods_are_pending_bound_resized_and_evicted_as_kube_apiserver_does() {
    let api = Api::new().await;
    let pods = "/api/v1/namespaces/ns/pods";
    let pod = |name: &str| {
        json!({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": {"app": "web"}},
            "spec": {"containers": [{"name": "web", "image": "nginx", "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}}]},
        })
        .to_string()
    };
    let (code, created) = api.send("POST", pods, "application/json", pod("a")).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    assert_eq!(created["status"], json!({"phase": "Pending", "qosClass": "Guaranteed"}));

    // binding: once, to a node, marking the Pod scheduled.
    let binding = |node: &str| {
        json!({"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "a"}, "target": {"kind": "Node", "name": node}})
            .to_string()
    };
    let (code, bound) = api
        .send("POST", &format!("{pods}/a/binding"), "application/json", binding("n1"))
        .await;
    assert_eq!(code, StatusCode::CREATED, "{bound}");
    assert_eq!(bound["status"], "Success");
    let (_, read) = api.get(&format!("{pods}/a")).await;
    assert_eq!(read["spec"]["nodeName"], "n1");
    assert_eq!(read["status"]["conditions"][0]["type"], "PodScheduled");
    assert_eq!(read["status"]["conditions"][0]["status"], "True");
    let (code, refused) = api
        .send("POST", &format!("{pods}/a/binding"), "application/json", binding("n2"))
        .await;
    assert_eq!(code, StatusCode::CONFLICT);
    assert_eq!(
        refused["message"],
        "Operation cannot be fulfilled on pods/binding \"a\": pod a is already assigned to node \"n1\""
    );
    // The legacy `bindings` resource binds the Pod its Binding names, and stores nothing.
    let (code, _) = api.send("POST", pods, "application/json", pod("b")).await;
    assert_eq!(code, StatusCode::CREATED);
    let legacy = json!({"apiVersion": "v1", "kind": "Binding", "metadata": {"name": "b"}, "target": {"kind": "Node", "name": "n3"}});
    let (code, bound) = api
        .send(
            "POST",
            "/api/v1/namespaces/ns/bindings",
            "application/json",
            legacy.to_string(),
        )
        .await;
    assert_eq!(
        (code, &bound["status"]),
        (StatusCode::CREATED, &json!("Success")),
        "{bound}"
    );
    assert_eq!(api.get(&format!("{pods}/b")).await.1["spec"]["nodeName"], "n3");
    let (_, core) = api.get("/api/v1").await;
    let bindings = core["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "bindings");
    assert_eq!(bindings.unwrap()["verbs"], json!(["create"]));

    // ephemeralcontainers and resize change their part only.
    let patch =
        json!({"spec": {"ephemeralContainers": [{"name": "debug", "image": "busybox"}], "nodeName": "elsewhere"}});
    let (code, patched) = api
        .send(
            "PATCH",
            &format!("{pods}/a/ephemeralcontainers"),
            "application/merge-patch+json",
            patch.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{patched}");
    assert_eq!(patched["spec"]["ephemeralContainers"][0]["name"], "debug");
    assert_eq!(patched["spec"]["nodeName"], "n1");
    let resize =
        json!({"spec": {"containers": [{"name": "web", "resources": {"limits": {"cpu": "2", "memory": "1Gi"}}}]}});
    let (code, resized) = api
        .send(
            "PATCH",
            &format!("{pods}/a/resize"),
            "application/strategic-merge-patch+json",
            resize.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{resized}");
    assert_eq!(resized["spec"]["containers"][0]["resources"]["limits"]["cpu"], "2");
    assert_eq!(resized["spec"]["containers"][0]["image"], "nginx");

    // eviction: a Pending Pod goes at once; a running one as its budget allows.
    let evict = |name: &str| {
        json!({"apiVersion": "policy/v1", "kind": "Eviction", "metadata": {"name": name, "namespace": "ns"}})
            .to_string()
    };
    api.send("POST", pods, "application/json", pod("pending")).await;
    let (code, evicted) = api
        .send(
            "POST",
            &format!("{pods}/pending/eviction"),
            "application/json",
            evict("pending"),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{evicted}");
    assert_eq!(api.get(&format!("{pods}/pending")).await.0, StatusCode::NOT_FOUND);
    let running = json!({"status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}]}});
    let (code, _) = api
        .send(
            "PATCH",
            &format!("{pods}/a/status"),
            "application/merge-patch+json",
            running.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::OK);
    let budgets = "/apis/policy/v1/namespaces/ns/poddisruptionbudgets";
    let budget = json!({
        "apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "web"},
        "spec": {"minAvailable": 1, "selector": {"matchLabels": {"app": "web"}}},
    });
    let (code, created) = api.send("POST", budgets, "application/json", budget.to_string()).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    // What the disruption controller would write: no disruption allowed.
    let status = json!({"status": {"observedGeneration": 1, "disruptionsAllowed": 0, "currentHealthy": 1, "desiredHealthy": 1, "expectedPods": 1}});
    api.send(
        "PATCH",
        &format!("{budgets}/web/status"),
        "application/merge-patch+json",
        status.to_string(),
    )
    .await;
    let (code, refused) = api
        .send("POST", &format!("{pods}/a/eviction"), "application/json", evict("a"))
        .await;
    assert_eq!(code, StatusCode::TOO_MANY_REQUESTS, "{refused}");
    assert_eq!(refused["reason"], "TooManyRequests");
    assert_eq!(
        refused["message"],
        "Cannot evict pod as it would violate the pod's disruption budget."
    );
    assert_eq!(
        refused["details"]["causes"],
        json!([{"reason": "DisruptionBudget", "message": "The disruption budget web needs 1 healthy pods and has 1 currently"}])
    );
    let allowed = json!({"status": {"disruptionsAllowed": 1, "currentHealthy": 2, "desiredHealthy": 1}});
    api.send(
        "PATCH",
        &format!("{budgets}/web/status"),
        "application/merge-patch+json",
        allowed.to_string(),
    )
    .await;
    let (code, _) = api
        .send("POST", &format!("{pods}/a/eviction"), "application/json", evict("a"))
        .await;
    assert_eq!(code, StatusCode::CREATED);
    assert_eq!(api.get(&format!("{pods}/a")).await.0, StatusCode::NOT_FOUND);
    let (_, budget) = api.get(&format!("{budgets}/web")).await;
    assert_eq!(budget["status"]["disruptionsAllowed"], 0);
    assert!(budget["status"]["disruptedPods"]["a"].is_string(), "{budget}");
}

#[tokio::test]
async fn certificate_signing_requests_are_approved_through_their_subresource() {
    let api = Api::new().await;
    let csrs = "/apis/certificates.k8s.io/v1/certificatesigningrequests";
    let key = rcgen::KeyPair::generate().unwrap();
    let request = rcgen::CertificateParams::new(vec!["jane".to_string()])
        .unwrap()
        .serialize_request(&key)
        .unwrap()
        .pem()
        .unwrap();
    let encoded = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, request);
    let csr = json!({
        "apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest", "metadata": {"name": "jane"},
        "spec": {"request": encoded, "signerName": "kubernetes.io/kube-apiserver-client", "usages": ["client auth"]},
    });
    let (code, created) = api.send("POST", csrs, "application/json", csr.to_string()).await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let mut approved = created.clone();
    approved["status"] =
        json!({"conditions": [{"type": "Approved", "status": "True", "reason": "Test", "message": "ok"}]});
    approved["spec"]["usages"] = json!(["server auth"]);
    let (code, answer) = api
        .send(
            "PUT",
            &format!("{csrs}/jane/approval"),
            "application/json",
            approved.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::OK, "{answer}");
    let condition = &answer["status"]["conditions"][0];
    assert_eq!(
        (&condition["type"], &condition["status"]),
        (&json!("Approved"), &json!("True"))
    );
    assert!(condition["lastUpdateTime"].is_string(), "{answer}");
    assert_eq!(
        answer["spec"]["usages"],
        json!(["client auth"]),
        "approval changes the conditions only"
    );
    let mut both = answer.clone();
    both["status"]["conditions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "Denied", "status": "True"}));
    let (code, refused) = api
        .send(
            "PUT",
            &format!("{csrs}/jane/approval"),
            "application/json",
            both.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        refused["message"],
        "CertificateSigningRequest.certificates.k8s.io \"jane\" is invalid: status.conditions[1].type: Invalid value: \"Denied\": Approved and Denied conditions are mutually exclusive"
    );
}

#[tokio::test]
async fn pods_volumes_and_claims_get_kubernetes_defaults() {
    let api = Api::new().await;
    let pod = json!({
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web"},
        "spec": {
            "containers": [{
                "name": "web", "image": "nginx:1.27",
                "resources": {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "500m"}},
                "readinessProbe": {"httpGet": {"port": 80}},
                "env": [{"name": "NODE", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}}],
            }],
            "volumes": [
                {"name": "scratch"},
                {"name": "creds", "secret": {"secretName": "creds"}},
                {"name": "config", "configMap": {"name": "config"}},
                {"name": "token", "projected": {"sources": [{"serviceAccountToken": {"path": "token"}}]}},
                {"name": "host", "hostPath": {"path": "/var/log"}},
            ],
        },
    });
    let (code, created) = api
        .send(
            "POST",
            "/api/v1/namespaces/ns/pods",
            "application/json",
            pod.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{created}");
    let spec = &created["spec"];
    let container = &spec["containers"][0];
    // A Pod requests what it limits unless it says otherwise.
    assert_eq!(
        container["resources"]["requests"],
        json!({"cpu": "500m", "memory": "1Gi"})
    );
    assert_eq!(
        container["readinessProbe"],
        json!({"httpGet": {"path": "/", "port": 80, "scheme": "HTTP"}, "timeoutSeconds": 1, "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3})
    );
    assert_eq!(container["env"][0]["valueFrom"]["fieldRef"]["apiVersion"], "v1");
    assert_eq!(spec["enableServiceLinks"], true);
    assert_eq!(spec["securityContext"], json!({}));
    let volumes = &spec["volumes"];
    assert_eq!(volumes[0], json!({"name": "scratch", "emptyDir": {}}));
    assert_eq!(volumes[1]["secret"]["defaultMode"], 420);
    assert_eq!(volumes[2]["configMap"]["defaultMode"], 420);
    assert_eq!(volumes[3]["projected"]["defaultMode"], 420);
    assert_eq!(
        volumes[3]["projected"]["sources"][0]["serviceAccountToken"]["expirationSeconds"],
        3600
    );
    assert_eq!(volumes[4]["hostPath"], json!({"path": "/var/log", "type": ""}));

    let pv = json!({
        "apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv"},
        "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "hostPath": {"path": "/data"}},
    });
    let (code, pv) = api
        .send("POST", "/api/v1/persistentvolumes", "application/json", pv.to_string())
        .await;
    assert_eq!(code, StatusCode::CREATED, "{pv}");
    assert_eq!(pv["status"]["phase"], "Pending");
    assert!(pv["status"]["lastPhaseTransitionTime"].is_string(), "{pv}");
    assert_eq!(pv["spec"]["persistentVolumeReclaimPolicy"], "Retain");
    assert_eq!(pv["spec"]["volumeMode"], "Filesystem");
    let pvc = json!({
        "apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data"},
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}},
    });
    let (code, pvc) = api
        .send(
            "POST",
            "/api/v1/namespaces/ns/persistentvolumeclaims",
            "application/json",
            pvc.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{pvc}");
    assert_eq!(pvc["status"], json!({"phase": "Pending"}));
    assert_eq!(pvc["spec"]["volumeMode"], "Filesystem");

    let rc = json!({
        "apiVersion": "v1", "kind": "ReplicationController", "metadata": {"name": "rc"},
        "spec": {"template": {"metadata": {"labels": {"app": "rc"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}},
    });
    let (code, rc) = api
        .send(
            "POST",
            "/api/v1/namespaces/ns/replicationcontrollers",
            "application/json",
            rc.to_string(),
        )
        .await;
    assert_eq!(code, StatusCode::CREATED, "{rc}");
    assert_eq!(rc["spec"]["selector"], json!({"app": "rc"}));
    assert_eq!(rc["metadata"]["labels"], json!({"app": "rc"}));
    assert_eq!(rc["spec"]["replicas"], 1);
}

#[tokio::test]
async fn pods_and_services_are_checked_as_kubernetes_words_it() {
    let api = Api::new().await;
    let create = |path: &'static str, body: Value| api.send("POST", path, "application/json", body.to_string());
    let pod = |volumes: Value, mounts: Value| {
        json!({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "bad"},
            "spec": {"containers": [{"name": "c", "image": "nginx", "volumeMounts": mounts}], "volumes": volumes},
        })
    };
    let pods = "/api/v1/namespaces/ns/pods";
    let cases = [
        (
            pod(
                json!([{"name": "data", "emptyDir": {}}]),
                json!([{"name": "missing", "mountPath": "/m"}]),
            ),
            "Pod \"bad\" is invalid: spec.containers[0].volumeMounts[0].name: Not found: \"missing\"",
        ),
        (
            pod(
                json!([{"name": "data", "emptyDir": {}}, {"name": "data", "emptyDir": {}}]),
                json!([{"name": "data", "mountPath": "/a"}, {"name": "data", "mountPath": "/a"}]),
            ),
            "Pod \"bad\" is invalid: [spec.volumes[1].name: Duplicate value: \"data\", spec.containers[0].volumeMounts[1].mountPath: Invalid value: \"/a\": must be unique]",
        ),
    ];
    for (body, message) in cases {
        let (code, refused) = create(pods, body).await;
        assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["message"], message);
    }

    let services = "/api/v1/namespaces/ns/services";
    let service =
        |spec: Value| json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "bad"}, "spec": spec});
    let cases = [
        (
            json!({"ports": [{"port": 80}, {"port": 443}]}),
            "Service \"bad\" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value]",
        ),
        (
            json!({"ports": [{"port": 80, "nodePort": 30080}]}),
            "Service \"bad\" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
        ),
        (
            json!({"ports": [{"name": "a", "port": 80}, {"name": "b", "port": 80}]}),
            "Service \"bad\" is invalid: spec.ports[1]: Duplicate value: core.ServicePort{Name:\"\", Protocol:\"TCP\", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}, NodePort:0}",
        ),
        (
            json!({"ports": [{"port": 80, "targetPort": "Web"}]}),
            "Service \"bad\" is invalid: spec.ports[0].targetPort: Invalid value: \"Web\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
        ),
        (
            json!({"type": "ExternalName"}),
            "Service \"bad\" is invalid: spec.externalName: Required value",
        ),
        (
            json!({"selector": {"app": "web"}}),
            "Service \"bad\" is invalid: spec.ports: Required value",
        ),
    ];
    for (spec, message) in cases {
        let (code, refused) = create(services, service(spec)).await;
        assert_eq!(code, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
        assert_eq!(refused["message"], message);
    }
    // Nothing a refused Service asked for stays allocated.
    let (_, addresses) = api.get("/apis/networking.k8s.io/v1/ipaddresses").await;
    let owners: Vec<&Value> = addresses["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["spec"]["parentRef"]["name"])
        .collect();
    assert_eq!(owners, [&json!("kubernetes")], "{addresses}");
}
