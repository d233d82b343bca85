"""A second real client: Debian's python3-kubernetes (22.6) against the sample API server.

Lists, creates, patches and watches a Deployment; prints one line per check, and exits non-zero
on the first failure. Usage: deployments.py http://127.0.0.1:PORT
"""

import sys
import threading

from kubernetes import client, watch


def main(server):
    config = client.Configuration(host=server)
    api = client.ApiClient(config)
    core = client.CoreV1Api(api)
    apps = client.AppsV1Api(api)

    core.create_namespace({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "py"}})
    assert apps.list_namespaced_deployment("py").items == [], "an empty list"
    print("list: empty")

    body = client.V1Deployment(
        metadata=client.V1ObjectMeta(name="web", labels={"app": "web"}),
        spec=client.V1DeploymentSpec(
            replicas=2,
            selector=client.V1LabelSelector(match_labels={"app": "web"}),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels={"app": "web"}),
                spec=client.V1PodSpec(containers=[client.V1Container(name="web", image="nginx:1.25")]),
            ),
        ),
    )
    created = apps.create_namespaced_deployment("py", body)
    assert created.metadata.uid and created.metadata.generation == 1, created.metadata
    assert created.spec.strategy.type == "RollingUpdate", "defaults applied"
    print("create: uid, generation 1, defaults")

    events = []
    started = threading.Event()

    def watch_changes():
        w = watch.Watch()
        started.set()
        for event in w.stream(apps.list_namespaced_deployment, "py", resource_version=created.metadata.resource_version, timeout_seconds=5):
            events.append((event["type"], event["object"].spec.replicas))
            if len(events) == 2:
                w.stop()

    t = threading.Thread(target=watch_changes)
    t.start()
    started.wait()
    # A strategic merge patch, as the Python client sends a dict by default.
    patched = apps.patch_namespaced_deployment("web", "py", {"spec": {"replicas": 3}})
    assert patched.spec.replicas == 3 and patched.metadata.generation == 2, patched.spec.replicas
    print("patch: replicas 3, generation 2")
    apps.patch_namespaced_deployment_scale("web", "py", {"spec": {"replicas": 4}})
    t.join(10)
    assert events == [("MODIFIED", 3), ("MODIFIED", 4)], events
    print("watch: MODIFIED 3, MODIFIED 4")

    listed = apps.list_deployment_for_all_namespaces(label_selector="app=web")
    assert [d.metadata.name for d in listed.items] == ["web"], listed.items
    print("list: all namespaces with a label selector")

    try:
        apps.read_namespaced_deployment("missing", "py")
        raise AssertionError("expected a 404")
    except client.exceptions.ApiException as e:
        assert e.status == 404 and e.reason == "Not Found", (e.status, e.reason)
    print("read: 404 for a missing object")

    import json
    bad = client.V1Deployment(
        metadata=client.V1ObjectMeta(name="bad"),
        spec=client.V1DeploymentSpec(
            replicas=-5,
            selector=client.V1LabelSelector(match_labels={"app": "bad"}),
            template=client.V1PodTemplateSpec(
                metadata=client.V1ObjectMeta(labels={"app": "bad"}),
                spec=client.V1PodSpec(containers=[client.V1Container(name="web", image="nginx:1.25")]),
            ),
        ),
    )
    try:
        apps.create_namespaced_deployment("py", bad)
        raise AssertionError("expected a 422")
    except client.exceptions.ApiException as e:
        status = json.loads(e.body)
        assert e.status == 422 and status["reason"] == "Invalid", (e.status, e.body)
        causes = [(c["field"], c["reason"], c["message"]) for c in status["details"]["causes"]]
        assert ("spec.replicas", "FieldValueInvalid", "Invalid value: -5: must be greater than or equal to 0") in causes, causes
    print("create: 422 Invalid with the causes")

    kept = apps.delete_namespaced_deployment("web", "py", body=client.V1DeleteOptions(dry_run=["All"]))
    assert kept.status == "Success", kept
    apps.read_namespaced_deployment("web", "py")
    status = apps.delete_namespaced_deployment("web", "py")
    assert status.status == "Success" and status.details.name == "web" and status.details.group == "apps", status
    try:
        apps.delete_namespaced_deployment("web", "py", propagation_policy="Bogus")
        raise AssertionError("expected a 422")
    except client.exceptions.ApiException as e:
        assert e.status == 422 and json.loads(e.body)["details"]["causes"][0]["field"] == "propagationPolicy", e.body
    print("delete: a dry run keeps it, then a Success Status")

    # The client escapes `:` in names (`system%3Apy`); the server reads the path decoded.
    rbac = client.RbacAuthorizationV1Api(api)
    rbac.create_cluster_role({"metadata": {"name": "system:py"}, "rules": []})
    assert rbac.read_cluster_role("system:py").metadata.name == "system:py"
    rbac.delete_cluster_role("system:py")
    print("read: a name with a colon, escaped")


if __name__ == "__main__":
    main(sys.argv[1])
