//! Hand-written defaults of core/v1, as Kubernetes' pkg/apis/core/v1/defaults.go sets them. The
//! generated defaulters of every kind with a pod template (apps, batch) reach these through it,
//! so a Deployment's containers are defaulted too.

use super::{
    Container, DNSPolicy, NamespacePhase, NamespaceStatus, PodSpec, PullPolicy, RestartPolicy, TerminationMessagePolicy,
};

/// PodSpec defaults: restart Always, ClusterFirst DNS, a 30 second grace period, the default
/// scheduler.
pub fn set_defaults_pod_spec(obj: &mut PodSpec) {
    obj.restart_policy.get_or_insert(RestartPolicy::RestartPolicyAlways);
    obj.dns_policy.get_or_insert(DNSPolicy::DNSClusterFirst);
    obj.termination_grace_period_seconds.get_or_insert(30);
    obj.scheduler_name.get_or_insert_with(|| "default-scheduler".into());
}

/// Container defaults: the termination message path and policy, and the pull policy from the
/// image's tag: `Always` for `:latest` or no tag, `IfNotPresent` otherwise.
pub fn set_defaults_container(obj: &mut Container) {
    obj.termination_message_path
        .get_or_insert_with(|| "/dev/termination-log".into());
    obj.termination_message_policy
        .get_or_insert(TerminationMessagePolicy::TerminationMessageReadFile);
    if obj.image_pull_policy.is_none() {
        let latest = image_tag(obj.image.as_deref().unwrap_or_default()) == Some("latest");
        obj.image_pull_policy = Some(if latest {
            PullPolicy::PullAlways
        } else {
            PullPolicy::PullIfNotPresent
        });
    }
}

/// Namespace status default: phase Active.
pub fn set_defaults_namespace_status(obj: &mut NamespaceStatus) {
    obj.phase.get_or_insert(NamespacePhase::NamespaceActive);
}

/// The tag of an image reference as Kubernetes' parser reads it: the text after the last `:` of
/// the last path segment, `latest` when there is neither a tag nor a digest, and none when the
/// image is pinned by digest only.
fn image_tag(image: &str) -> Option<&str> {
    let (name, digest) = match image.split_once('@') {
        Some((n, d)) => (n, Some(d)),
        None => (image, None),
    };
    let last = name.rsplit('/').next().unwrap_or(name);
    match last.split_once(':') {
        Some((_, tag)) => Some(tag),
        None if digest.is_some() => None,
        None => Some("latest"),
    }
}
