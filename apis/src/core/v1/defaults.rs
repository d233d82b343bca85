//! Hand-written defaults of core/v1 for the fields this crate mirrors, as Kubernetes'
//! pkg/apis/core/v1/defaults.go sets them. apps' generated defaulters reach these through the pod
//! template, so a Deployment gets its containers defaulted too.

use super::{Container, NamespaceStatus, PodSpec};

/// PodSpec defaults: restart Always, ClusterFirst DNS, a 30 second grace period, the default
/// scheduler.
pub fn set_defaults_pod_spec(obj: &mut PodSpec) {
    kube_apimachinery::defaulting::set_if_empty(&mut obj.restart_policy, "Always");
    kube_apimachinery::defaulting::set_if_empty(&mut obj.dns_policy, "ClusterFirst");
    obj.termination_grace_period_seconds.get_or_insert(30);
    kube_apimachinery::defaulting::set_if_empty(&mut obj.scheduler_name, "default-scheduler");
}

/// Container defaults: the termination message path and policy, and the pull policy from the
/// image's tag: `Always` for `:latest` or no tag, `IfNotPresent` otherwise.
pub fn set_defaults_container(obj: &mut Container) {
    kube_apimachinery::defaulting::set_if_empty(&mut obj.termination_message_path, "/dev/termination-log");
    kube_apimachinery::defaulting::set_if_empty(&mut obj.termination_message_policy, "File");
    if obj.image_pull_policy.is_empty() {
        let latest = image_tag(&obj.image) == Some("latest");
        obj.image_pull_policy = if latest { "Always" } else { "IfNotPresent" }.into();
    }
}

/// Namespace status default: phase Active.
pub fn set_defaults_namespace_status(obj: &mut NamespaceStatus) {
    kube_apimachinery::defaulting::set_if_empty(&mut obj.phase, "Active");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_tags() {
        assert_eq!(image_tag("nginx"), Some("latest"));
        assert_eq!(image_tag("nginx:latest"), Some("latest"));
        assert_eq!(image_tag("nginx:1.27"), Some("1.27"));
        assert_eq!(
            image_tag("registry:5000/team/nginx"),
            Some("latest"),
            "a registry port is not a tag"
        );
        assert_eq!(image_tag("registry:5000/team/nginx:2"), Some("2"));
        assert_eq!(image_tag("nginx@sha256:abc"), None);
        assert_eq!(image_tag("nginx:1@sha256:abc"), Some("1"));
    }

    #[test]
    fn pull_policy_follows_the_tag_and_keeps_an_explicit_one() {
        let mut c = Container {
            image: "nginx".into(),
            ..Default::default()
        };
        set_defaults_container(&mut c);
        assert_eq!(c.image_pull_policy, "Always");
        let mut c = Container {
            image: "nginx:1.27".into(),
            ..Default::default()
        };
        set_defaults_container(&mut c);
        assert_eq!(c.image_pull_policy, "IfNotPresent");
        let mut c = Container {
            image: "nginx".into(),
            image_pull_policy: "Never".into(),
            ..Default::default()
        };
        set_defaults_container(&mut c);
        assert_eq!(c.image_pull_policy, "Never");
    }
}
