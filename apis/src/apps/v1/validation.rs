//! Hand-written validation of apps/v1, as Kubernetes' pkg/apis/apps/validation checks its
//! workloads: a Deployment's selector (not empty, matching the template's labels, immutable),
//! strategy and rolling-update bounds, progress deadline and restart policy; a ReplicaSet's
//! selector; a StatefulSet's selector, policies and the fields an update may not change; counts
//! and seconds at least 0. The generated `validate_*` call these beside k8s.io/api's declarative
//! rules and the pod template's validation.

use std::collections::BTreeMap;

use k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube_apimachinery::validation::{ErrorList, FieldError, Operation, Path, json_value};

use super::{
    Deployment, DeploymentStrategy, DeploymentStrategyType, ReplicaSet, StatefulSet, StatefulSetUpdateStrategyType,
};
use crate::core::v1::RestartPolicy;

/// The checks of `ValidateDeployment` and `ValidateDeploymentUpdate` that no tag states.
pub fn validate_custom_deployment(
    op: &Operation,
    path: &Path<'_>,
    obj: &Deployment,
    old: Option<&Deployment>,
) -> ErrorList {
    let spec_path = path.child("spec");
    let default_spec = super::DeploymentSpec::default();
    let spec = obj.spec.as_ref().unwrap_or(&default_spec);
    let mut errs = ErrorList::new();
    nonnegative(&mut errs, &spec_path, "replicas", spec.replicas);
    nonnegative(&mut errs, &spec_path, "minReadySeconds", spec.min_ready_seconds);
    nonnegative(
        &mut errs,
        &spec_path,
        "revisionHistoryLimit",
        spec.revision_history_limit,
    );
    nonnegative(
        &mut errs,
        &spec_path,
        "progressDeadlineSeconds",
        spec.progress_deadline_seconds,
    );
    let selector_path = spec_path.child("selector");
    let template_path = spec_path.child("template");
    let labels = spec.template.metadata.as_ref().and_then(|m| m.labels.as_ref());
    errs.extend(selector_errors(
        &selector_path,
        &template_path,
        spec.selector.as_ref(),
        labels,
        "deployment",
    ));
    if let Some(policy) = spec.template.spec.as_ref().and_then(|s| s.restart_policy.as_ref())
        && *policy != RestartPolicy::RestartPolicyAlways
    {
        let spec = template_path.child("spec");
        errs.push(FieldError::not_supported(
            &spec.child("restartPolicy"),
            json_value(policy),
            &["Always"],
        ));
    }
    if let Some(strategy) = &spec.strategy {
        errs.extend(strategy_errors(&spec_path.child("strategy"), strategy));
    }
    if let Some(deadline) = spec.progress_deadline_seconds
        && deadline >= 0
        && deadline <= spec.min_ready_seconds.unwrap_or(0)
    {
        errs.push(FieldError::invalid(
            &spec_path.child("progressDeadlineSeconds"),
            i64::from(deadline),
            "must be greater than minReadySeconds",
        ));
    }
    if let Some(old) = old.filter(|_| op.is_update())
        && old.spec.as_ref().and_then(|s| s.selector.as_ref()) != spec.selector.as_ref()
    {
        errs.push(FieldError::invalid(
            &selector_path,
            json_value(&spec.selector),
            "field is immutable",
        ));
    }
    errs
}

/// `ValidateReplicaSet` and its update: the selector as a Deployment's (Kubernetes words an empty
/// one "for deployment" here too), immutable in apps/v1.
pub fn validate_custom_replica_set(
    op: &Operation,
    path: &Path<'_>,
    obj: &ReplicaSet,
    old: Option<&ReplicaSet>,
) -> ErrorList {
    let spec_path = path.child("spec");
    let selector_path = spec_path.child("selector");
    let template_path = spec_path.child("template");
    let selector = obj.spec.as_ref().and_then(|s| s.selector.as_ref());
    let labels = obj
        .spec
        .as_ref()
        .and_then(|s| s.template.as_ref())
        .and_then(|t| t.metadata.as_ref())
        .and_then(|m| m.labels.as_ref());
    let mut errs = selector_errors(&selector_path, &template_path, selector, labels, "deployment");
    if let Some(spec) = &obj.spec {
        nonnegative(&mut errs, &spec_path, "replicas", spec.replicas);
        nonnegative(&mut errs, &spec_path, "minReadySeconds", spec.min_ready_seconds);
    }
    if let Some(old) = old.filter(|_| op.is_update())
        && old.spec.as_ref().and_then(|s| s.selector.as_ref()) != selector
    {
        errs.push(FieldError::invalid(
            &selector_path,
            json_value(&selector),
            "field is immutable",
        ));
    }
    errs
}

/// `ValidateStatefulSet` and `ValidateStatefulSetUpdate`: the selector, the pod management and
/// update policies, and on update only the fields Kubernetes lets change.
pub fn validate_custom_stateful_set(
    op: &Operation,
    path: &Path<'_>,
    obj: &StatefulSet,
    old: Option<&StatefulSet>,
) -> ErrorList {
    let spec_path = path.child("spec");
    let default_spec = super::StatefulSetSpec::default();
    let spec = obj.spec.as_ref().unwrap_or(&default_spec);
    let selector_path = spec_path.child("selector");
    let template_path = spec_path.child("template");
    let labels = spec.template.metadata.as_ref().and_then(|m| m.labels.as_ref());
    let mut errs = selector_errors(
        &selector_path,
        &template_path,
        spec.selector.as_ref(),
        labels,
        "statefulset",
    );
    nonnegative(&mut errs, &spec_path, "replicas", spec.replicas);
    nonnegative(&mut errs, &spec_path, "minReadySeconds", spec.min_ready_seconds);
    nonnegative(
        &mut errs,
        &spec_path,
        "revisionHistoryLimit",
        spec.revision_history_limit,
    );
    if let Some(strategy) = &spec.update_strategy
        && strategy.type_ == Some(StatefulSetUpdateStrategyType::OnDeleteStatefulSetStrategyType)
        && strategy.rolling_update.is_some()
    {
        errs.push(FieldError::invalid(
            &spec_path.child("updateStrategy").child("rollingUpdate"),
            json_value(&strategy.rolling_update),
            "only allowed for updateStrategy 'RollingUpdate'",
        ));
    }
    if let Some(old) = old.filter(|_| op.is_update()) {
        let o = old.spec.as_ref().unwrap_or(&default_spec);
        let changed = o.selector != spec.selector
            || o.service_name != spec.service_name
            || o.pod_management_policy != spec.pod_management_policy
            || o.volume_claim_templates != spec.volume_claim_templates;
        if changed {
            errs.push(FieldError::forbidden(
                &spec_path,
                "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
            ));
        }
    }
    errs
}

/// `ValidateNonnegativeField`: a count or a number of seconds is at least 0.
fn nonnegative(errs: &mut ErrorList, spec: &Path<'_>, field: &str, value: Option<i32>) {
    if let Some(v) = value.filter(|v| *v < 0) {
        errs.push(FieldError::invalid(
            &spec.child(field),
            i64::from(v),
            "must be greater than or equal to 0",
        ));
    }
}

/// A workload's selector: not empty, and selecting its own template's labels.
pub fn selector_errors(
    path: &Path<'_>,
    template: &Path<'_>,
    selector: Option<&LabelSelector>,
    labels: Option<&BTreeMap<String, String>>,
    kind: &str,
) -> ErrorList {
    let Some(selector) = selector else {
        return vec![FieldError::required(path, "")];
    };
    let empty = selector.match_labels.as_ref().is_none_or(BTreeMap::is_empty)
        && selector.match_expressions.as_ref().is_none_or(Vec::is_empty);
    if empty {
        return vec![FieldError::invalid(
            path,
            json_value(selector),
            format!("empty selector is invalid for {kind}"),
        )];
    }
    let empty_labels = BTreeMap::new();
    let labels = labels.unwrap_or(&empty_labels);
    if matches(selector, labels) {
        return ErrorList::new();
    }
    let metadata = template.child("metadata");
    vec![FieldError::invalid(
        &metadata.child("labels"),
        json_value(labels),
        "`selector` does not match template `labels`",
    )]
}

/// Whether a label selector selects these labels (`metav1.LabelSelectorAsSelector().Matches`).
pub fn matches(selector: &LabelSelector, labels: &BTreeMap<String, String>) -> bool {
    let by_labels = selector
        .match_labels
        .iter()
        .flatten()
        .all(|(k, v)| labels.get(k) == Some(v));
    let by_expressions = selector.match_expressions.iter().flatten().all(|e| {
        let values = e.values.as_deref().unwrap_or_default();
        let value = labels.get(&e.key);
        match e.operator.as_str() {
            "In" => value.is_some_and(|v| values.contains(v)),
            "NotIn" => value.is_none_or(|v| !values.contains(v)),
            "Exists" => value.is_some(),
            "DoesNotExist" => value.is_none(),
            _ => false,
        }
    });
    by_labels && by_expressions
}

/// `ValidateDeploymentStrategy`: a known type, rolling-update bounds only with RollingUpdate.
fn strategy_errors(path: &Path<'_>, strategy: &DeploymentStrategy) -> ErrorList {
    let mut errs = ErrorList::new();
    let rolling_path = path.child("rollingUpdate");
    match strategy.type_ {
        Some(DeploymentStrategyType::RecreateDeploymentStrategyType) if strategy.rolling_update.is_some() => errs.push(
            FieldError::forbidden(&rolling_path, "may not be specified when strategy `type` is 'Recreate'"),
        ),
        Some(DeploymentStrategyType::RecreateDeploymentStrategyType) | None => {}
        Some(DeploymentStrategyType::RollingUpdateDeploymentStrategyType) => {
            let Some(rolling) = &strategy.rolling_update else {
                return errs;
            };
            let unavailable_path = rolling_path.child("maxUnavailable");
            let surge_path = rolling_path.child("maxSurge");
            errs.extend(int_or_percent_errors(
                &unavailable_path,
                rolling.max_unavailable.as_ref(),
            ));
            errs.extend(int_or_percent_errors(&surge_path, rolling.max_surge.as_ref()));
            if is_zero(rolling.max_unavailable.as_ref()) && is_zero(rolling.max_surge.as_ref()) {
                errs.push(FieldError::invalid(
                    &unavailable_path,
                    json_value(&rolling.max_unavailable),
                    "may not be 0 when `maxSurge` is 0",
                ));
            }
        }
    }
    errs
}

/// `ValidatePositiveIntOrPercent` and `IsNotMoreThan100Percent`.
fn int_or_percent_errors(path: &Path<'_>, value: Option<&IntOrString>) -> ErrorList {
    match value {
        None => ErrorList::new(),
        Some(IntOrString::Int(i)) if *i < 0 => {
            vec![FieldError::invalid(
                path,
                i64::from(*i),
                "must be greater than or equal to 0",
            )]
        }
        Some(IntOrString::Int(_)) => ErrorList::new(),
        Some(IntOrString::String(s)) => match percent(s) {
            None => vec![FieldError::invalid(
                path,
                s.as_str(),
                "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
            )],
            Some(p) if p > 100 => vec![FieldError::invalid(path, s.as_str(), "must not be greater than 100%")],
            Some(_) => ErrorList::new(),
        },
    }
}

/// The number of a percent string (`25%`).
fn percent(s: &str) -> Option<u64> {
    let digits = s.strip_suffix('%')?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

fn is_zero(value: Option<&IntOrString>) -> bool {
    match value {
        None => true,
        Some(IntOrString::Int(i)) => *i == 0,
        Some(IntOrString::String(s)) => percent(s) == Some(0),
    }
}
