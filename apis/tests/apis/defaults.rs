//! Defaulting through the Scheme, as the API server applies it after decoding: an apps/v1
//! Deployment with one container gets every default Kubernetes sets, defaulting twice changes
//! nothing, and `+default=` markers apply.

use apis::{apps, core};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use apps::v1::{DeploymentStrategyType, StatefulSetUpdateStrategyType};
use core::v1::{DNSPolicy, NamespacePhase, Protocol, PullPolicy, RestartPolicy, TerminationMessagePolicy};

fn deployment_with_one_container(image: &str) -> apps::v1::Deployment {
    let container = core::v1::Container {
        name: "web".into(),
        image: Some(image.into()),
        ports: Some(vec![core::v1::ContainerPort {
            container_port: 80,
            ..Default::default()
        }]),
        ..Default::default()
    };
    let mut d = apps::v1::Deployment::default();
    d.spec.get_or_insert_default().template.spec = Some(core::v1::PodSpec {
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
    let spec = d.spec.as_ref().unwrap();
    assert_eq!(spec.replicas, Some(1));
    assert_eq!(spec.revision_history_limit, Some(10));
    assert_eq!(spec.progress_deadline_seconds, Some(600));
    let strategy = spec.strategy.as_ref().unwrap();
    assert_eq!(
        strategy.type_,
        Some(DeploymentStrategyType::RollingUpdateDeploymentStrategyType)
    );
    let rolling = strategy.rolling_update.as_ref().unwrap();
    assert_eq!(rolling.max_unavailable, Some(IntOrString::String("25%".into())));
    assert_eq!(rolling.max_surge, Some(IntOrString::String("25%".into())));
    let pod = spec.template.spec.as_ref().unwrap();
    assert_eq!(pod.restart_policy, Some(RestartPolicy::RestartPolicyAlways));
    assert_eq!(pod.dns_policy, Some(DNSPolicy::DNSClusterFirst));
    assert_eq!(pod.termination_grace_period_seconds, Some(30));
    assert_eq!(pod.scheduler_name.as_deref(), Some("default-scheduler"));
    let c = &pod.containers[0];
    assert_eq!(c.termination_message_path.as_deref(), Some("/dev/termination-log"));
    assert_eq!(
        c.termination_message_policy,
        Some(TerminationMessagePolicy::TerminationMessageReadFile)
    );
    assert_eq!(c.image_pull_policy, Some(PullPolicy::PullAlways), "no tag means latest");
    assert_eq!(
        c.ports.as_ref().unwrap()[0].protocol,
        Some(Protocol::ProtocolTCP),
        "k8s.io/api's +default=\"TCP\" marker"
    );
}

#[test]
fn a_tagged_image_is_pulled_if_not_present_and_explicit_values_stay() {
    let scheme = apis::scheme().unwrap();
    let mut d = deployment_with_one_container("nginx:1.27");
    let spec = d.spec.get_or_insert_default();
    spec.replicas = Some(0);
    spec.strategy = Some(apps::v1::DeploymentStrategy {
        type_: Some(DeploymentStrategyType::RecreateDeploymentStrategyType),
        ..Default::default()
    });
    scheme.default(&mut d);
    let spec = d.spec.as_ref().unwrap();
    let c = &spec.template.spec.as_ref().unwrap().containers[0];
    assert_eq!(c.image_pull_policy, Some(PullPolicy::PullIfNotPresent));
    assert_eq!(spec.replicas, Some(0), "scaled to zero stays at zero");
    assert_eq!(
        spec.strategy.as_ref().unwrap().rolling_update,
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
fn a_stateful_set_rolls_from_partition_zero() {
    let scheme = apis::scheme().unwrap();
    let mut s = apps::v1::StatefulSet::default();
    scheme.default(&mut s);
    let strategy = s.spec.as_ref().unwrap().update_strategy.as_ref().unwrap();
    assert_eq!(
        (
            strategy.type_.as_ref(),
            strategy.rolling_update.as_ref().unwrap().partition
        ),
        (
            Some(&StatefulSetUpdateStrategyType::RollingUpdateStatefulSetStrategyType),
            Some(0)
        )
    );
}

#[test]
fn list_items_and_nested_statuses_are_defaulted() {
    let scheme = apis::scheme().unwrap();
    let mut list = apps::v1::DeploymentList {
        items: vec![deployment_with_one_container("nginx")],
        ..Default::default()
    };
    scheme.default(&mut list);
    assert_eq!(
        list.items[0].spec.as_ref().unwrap().replicas,
        Some(1),
        "list items are defaulted"
    );
    let mut ns = core::v1::Namespace {
        status: Some(Default::default()),
        ..Default::default()
    };
    scheme.default(&mut ns);
    assert_eq!(ns.status.unwrap().phase, Some(NamespacePhase::NamespaceActive));
}

/// The pull policy follows the image's tag as Kubernetes' reference parser reads it: `latest`
/// when there is neither a tag nor a digest, a registry port is no tag, a digest alone is no tag.
#[test]
fn the_pull_policy_follows_the_images_tag_and_keeps_an_explicit_one() {
    let defaulted = |image: &str, policy: Option<PullPolicy>| {
        let mut c = core::v1::Container {
            image: Some(image.into()),
            image_pull_policy: policy,
            ..Default::default()
        };
        core::v1::set_defaults_container(&mut c);
        c.image_pull_policy
    };
    for (image, want) in [
        ("nginx", PullPolicy::PullAlways),
        ("nginx:latest", PullPolicy::PullAlways),
        ("nginx:1.27", PullPolicy::PullIfNotPresent),
        ("registry:5000/team/nginx", PullPolicy::PullAlways),
        ("registry:5000/team/nginx:2", PullPolicy::PullIfNotPresent),
        ("nginx@sha256:abc", PullPolicy::PullIfNotPresent),
        ("nginx:1@sha256:abc", PullPolicy::PullIfNotPresent),
    ] {
        assert_eq!(defaulted(image, None), Some(want), "{image}");
    }
    assert_eq!(
        defaulted("nginx", Some(PullPolicy::PullNever)),
        Some(PullPolicy::PullNever)
    );
}
