//! Defaulting through the Scheme, as the API server applies it after decoding: an apps/v1
//! Deployment with one container gets every default Kubernetes sets, defaulting twice changes
//! nothing, and `+default=` markers apply.

use apis::{apps, autoscaling, core};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

fn deployment_with_one_container(image: &str) -> apps::v1::Deployment {
    let container = core::v1::Container {
        name: "web".into(),
        image: image.into(),
        ports: Some(vec![core::v1::ContainerPort {
            container_port: 80,
            ..Default::default()
        }]),
        ..Default::default()
    };
    let mut d = apps::v1::Deployment::default();
    d.spec.template.spec = Some(core::v1::PodSpec {
        containers: vec![container],
        ..Default::default()
    });
    d
}

#[test]
fn an_empty_deployment_gets_every_default() {
    let scheme = apis::scheme().unwrap();
    let mut d = deployment_with_one_container("nginx");
    scheme.default(&mut d);
    let spec = &d.spec;
    assert_eq!(spec.replicas, Some(1));
    assert_eq!(spec.revision_history_limit, Some(10));
    assert_eq!(spec.progress_deadline_seconds, Some(600));
    let strategy = spec.strategy.as_ref().unwrap();
    assert_eq!(strategy.type_, "RollingUpdate");
    let rolling = strategy.rolling_update.as_ref().unwrap();
    assert_eq!(rolling.max_unavailable, Some(IntOrString::String("25%".into())));
    assert_eq!(rolling.max_surge, Some(IntOrString::String("25%".into())));
    let pod = spec.template.spec.as_ref().unwrap();
    assert_eq!(pod.restart_policy, "Always");
    assert_eq!(pod.dns_policy, "ClusterFirst");
    assert_eq!(pod.termination_grace_period_seconds, Some(30));
    assert_eq!(pod.scheduler_name, "default-scheduler");
    let c = &pod.containers[0];
    assert_eq!(c.termination_message_path, "/dev/termination-log");
    assert_eq!(c.termination_message_policy, "File");
    assert_eq!(c.image_pull_policy, "Always", "no tag means latest");
    assert_eq!(
        c.ports.as_ref().unwrap()[0].protocol,
        "TCP",
        "the +default=\"TCP\" marker"
    );
}

#[test]
fn a_tagged_image_is_pulled_if_not_present_and_explicit_values_stay() {
    let scheme = apis::scheme().unwrap();
    let mut d = deployment_with_one_container("nginx:1.27");
    d.spec.replicas = Some(0);
    d.spec.strategy = Some(apps::v1::DeploymentStrategy {
        type_: "Recreate".into(),
        ..Default::default()
    });
    scheme.default(&mut d);
    let c = &d.spec.template.spec.as_ref().unwrap().containers[0];
    assert_eq!(c.image_pull_policy, "IfNotPresent");
    assert_eq!(d.spec.replicas, Some(0), "scaled to zero stays at zero");
    assert_eq!(
        d.spec.strategy.as_ref().unwrap().rolling_update,
        None,
        "Recreate has no rolling update"
    );
}

#[test]
fn defaulting_twice_changes_nothing() {
    let scheme = apis::scheme().unwrap();
    for seed in 0..64u64 {
        let mut d: apps::v1::Deployment = kube_apimachinery::testing::fill(seed).unwrap();
        scheme.default(&mut d);
        let once = d.clone();
        scheme.default(&mut d);
        assert_eq!(d, once, "seed {seed}");
    }
}

#[test]
fn versions_default_differently() {
    let scheme = apis::scheme().unwrap();
    let mut d = apps::v1beta1::Deployment::default();
    let labels = std::collections::BTreeMap::from([("app".to_string(), "web".to_string())]);
    d.spec.template.metadata = Some(k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta {
        labels: Some(labels.clone()),
        ..Default::default()
    });
    scheme.default(&mut d);
    assert_eq!(
        d.spec.revision_history_limit,
        Some(2),
        "v1beta1 keeps two old ReplicaSets"
    );
    assert_eq!(
        d.spec.selector.as_ref().unwrap().match_labels.as_ref(),
        Some(&labels),
        "selector from the template"
    );
    assert_eq!(d.metadata.labels.as_ref(), Some(&labels));
    let mut s = apps::v1beta1::StatefulSet::default();
    scheme.default(&mut s);
    assert_eq!(s.spec.update_strategy.as_ref().unwrap().type_, "OnDelete");
    let mut s = apps::v1::StatefulSet::default();
    scheme.default(&mut s);
    let strategy = s.spec.update_strategy.as_ref().unwrap();
    assert_eq!(
        (
            strategy.type_.as_str(),
            strategy.rolling_update.as_ref().unwrap().partition
        ),
        ("RollingUpdate", Some(0))
    );
}

#[test]
fn markers_and_lists_are_defaulted() {
    let scheme = apis::scheme().unwrap();
    let mut scale = autoscaling::v1::Scale {
        spec: Some(Default::default()),
        ..Default::default()
    };
    scheme.default(&mut scale);
    assert_eq!(
        scale.spec.as_ref().unwrap().replicas,
        0,
        "+default=0 on a plain field (Go's omitempty int32) is its zero value"
    );
    let mut list = apps::v1::DeploymentList {
        items: vec![deployment_with_one_container("nginx")],
        ..Default::default()
    };
    scheme.default(&mut list);
    assert_eq!(list.items[0].spec.replicas, Some(1), "list items are defaulted");
    let mut ns = core::v1::Namespace {
        status: Some(Default::default()),
        ..Default::default()
    };
    scheme.default(&mut ns);
    assert_eq!(ns.status.unwrap().phase, "Active");
}
