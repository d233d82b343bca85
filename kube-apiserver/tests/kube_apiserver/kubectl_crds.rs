//! kubectl end to end on a CRD defined at run time: apply the CRD, apply objects, `get` with its
//! printer columns and short name, `explain` from the served OpenAPI, `scale`, a refused object
//! with the schema's message, and `delete crd` taking the objects with it.

use crate::support;

use support::kubectl::{Backend, Kubectl};

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab, shortNames: [ct]}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
    additionalPrinterColumns:
    - {name: Spec, type: string, jsonPath: .spec.cronSpec}
    - {name: Replicas, type: integer, jsonPath: .spec.replicas}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: What the cron tab runs and when.
            properties:
              cronSpec: {type: string, pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$', description: The schedule in cron format.}
              image: {type: string}
              replicas: {type: integer, minimum: 1, maximum: 10, default: 1}
          status:
            type: object
            properties:
              replicas: {type: integer}
";

const CRONTAB: &str = "apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-cron
  namespace: default
spec:
  cronSpec: '* * * * */5'
  image: my-cron-image
";

const NAMESPACE: &str = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: default\n";

fn crontabs(k: Kubectl) {
    k.ok(&["apply", "-f", &k.file("ns.yaml", NAMESPACE)]);
    assert_eq!(
        k.ok(&["apply", "-f", &k.file("crd.yaml", CRD)]),
        "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n"
    );
    k.ok(&[
        "wait",
        "--for=condition=Established",
        "crd/crontabs.stable.example.com",
        "--timeout=10s",
    ]);
    assert_eq!(
        k.ok(&["apply", "-f", &k.file("ct.yaml", CRONTAB)]),
        "crontab.stable.example.com/my-cron created\n"
    );
    let table = k.ok(&["get", "ct", "-n", "default"]);
    let lines: Vec<Vec<&str>> = table.lines().map(|l| l.split_whitespace().collect()).collect();
    // Columns of its own replace the default Age column, as Kubernetes' CRD table does.
    assert_eq!(lines[0], ["NAME", "SPEC", "REPLICAS"], "{table}");
    assert_eq!(&lines[1][..6], ["my-cron", "*", "*", "*", "*", "*/5"], "{table}");
    assert_eq!(lines[1][6], "1", "the default replicas: {table}");

    let explained = k.ok(&["explain", "crontabs.spec"]);
    assert!(explained.contains("KIND:       CronTab"), "{explained}");
    assert!(explained.contains("What the cron tab runs and when."), "{explained}");
    assert!(explained.contains("cronSpec\t<string>"), "{explained}");

    assert_eq!(
        k.ok(&["scale", "ct", "my-cron", "-n", "default", "--replicas=3"]),
        "crontab.stable.example.com/my-cron scaled\n"
    );
    assert_eq!(
        k.ok(&[
            "get",
            "ct",
            "my-cron",
            "-n",
            "default",
            "-o",
            "jsonpath={.spec.replicas}"
        ]),
        "3"
    );
    let refused = k.run(&["scale", "ct", "my-cron", "-n", "default", "--replicas=30"]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        stderr.contains("spec.replicas: Invalid value: 30: spec.replicas in body should be less than or equal to 10"),
        "{stderr}"
    );
    let bad = CRONTAB
        .replace("my-cron\n", "bad-cron\n")
        .replace("'* * * * */5'", "'every minute'");
    let refused = k.run(&["apply", "-f", &k.file("bad.yaml", &bad)]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        stderr.contains("The CronTab \"bad-cron\" is invalid: spec.cronSpec: Invalid value: \"every minute\""),
        "{stderr}"
    );

    assert_eq!(
        k.ok(&["delete", "crd", "crontabs.stable.example.com"]),
        "customresourcedefinition.apiextensions.k8s.io \"crontabs.stable.example.com\" deleted\n"
    );
    let gone = k.run(&["get", "crontabs.stable.example.com", "-n", "default"]);
    assert!(!gone.status.success(), "{gone:?}");
}

#[test]
fn crds_through_kubectl() {
    crontabs(Kubectl::new("crontabs"));
}

#[test]
fn crds_through_kubectl_on_etcd() {
    crontabs(Kubectl::on("crontabs-etcd", Backend::Etcd));
}
