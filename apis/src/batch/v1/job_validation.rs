//! Hand-written validation of Jobs, as Kubernetes' pkg/apis/batch/validation checks them: the
//! counts not negative, an Indexed Job's completions, the per-index limits only in Indexed mode,
//! a pod template that does not restart its pods (`OnFailure` or `Never`; `Never` with a pod
//! failure policy), a CronJob's job template without a selector of its own, and on update the
//! fields a running Job keeps (its selector, completion mode, failure and success policies, and
//! its pod template unless it is suspended).

use kube_apimachinery::validation::{BadValue, ErrorList, FieldError, Operation, Path, json_value};

use super::{CompletionMode, Job, JobSpec, JobTemplateSpec};
use crate::core::v1::RestartPolicy;

/// `validateJobSpec`, the part a Job and a CronJob's job template share.
pub fn validate_custom_job_spec(op: &Operation, path: &Path<'_>, obj: &JobSpec, old: Option<&JobSpec>) -> ErrorList {
    let mut errs = ErrorList::new();
    let counts = [
        ("parallelism", obj.parallelism.map(i64::from)),
        ("completions", obj.completions.map(i64::from)),
        ("activeDeadlineSeconds", obj.active_deadline_seconds),
        ("backoffLimit", obj.backoff_limit.map(i64::from)),
        ("ttlSecondsAfterFinished", obj.ttl_seconds_after_finished.map(i64::from)),
        ("backoffLimitPerIndex", obj.backoff_limit_per_index.map(i64::from)),
        ("maxFailedIndexes", obj.max_failed_indexes.map(i64::from)),
    ];
    for (field, value) in counts {
        if let Some(v) = value.filter(|v| *v < 0) {
            errs.push(FieldError::invalid(
                &path.child(field),
                v,
                "must be greater than or equal to 0",
            ));
        }
    }
    if obj.max_failed_indexes.is_some() && obj.backoff_limit_per_index.is_none() {
        errs.push(FieldError::required(
            &path.child("backoffLimitPerIndex"),
            "when maxFailedIndexes is specified",
        ));
    }
    let indexed = obj.completion_mode == Some(CompletionMode::IndexedCompletion);
    if indexed {
        if obj.completions.is_none() {
            errs.push(FieldError::required(
                &path.child("completions"),
                "when completion mode is Indexed",
            ));
        }
        if let (Some(max), Some(completions)) = (obj.max_failed_indexes, obj.completions)
            && max > completions
        {
            errs.push(FieldError::invalid(
                &path.child("maxFailedIndexes"),
                i64::from(max),
                "must be less than or equal to completions",
            ));
        }
    } else {
        for (field, value) in [
            ("backoffLimitPerIndex", obj.backoff_limit_per_index),
            ("maxFailedIndexes", obj.max_failed_indexes),
        ] {
            if let Some(v) = value {
                errs.push(FieldError::invalid(
                    &path.child(field),
                    i64::from(v),
                    "requires indexed completion mode",
                ));
            }
        }
    }
    let restart = path.child("template");
    let restart = restart.child("spec");
    let restart = restart.child("restartPolicy");
    // Pod defaults make an unset policy `Always`, so both read as missing.
    match obj.template.spec.as_ref().and_then(|s| s.restart_policy.as_ref()) {
        None | Some(RestartPolicy::RestartPolicyAlways) => {
            errs.push(FieldError::required(&restart, "valid values: \"OnFailure\", \"Never\""));
        }
        Some(RestartPolicy::RestartPolicyOnFailure) if obj.pod_failure_policy.is_some() => {
            errs.push(FieldError::invalid(
                &restart,
                "OnFailure",
                "only \"Never\" is supported when podFailurePolicy is specified",
            ));
        }
        Some(_) => {}
    }
    let _ = (op, old);
    errs
}

/// `ValidateJobTemplateSpec`: a CronJob's jobs get a generated selector.
pub fn validate_custom_job_template_spec(
    op: &Operation,
    path: &Path<'_>,
    obj: &JobTemplateSpec,
    old: Option<&JobTemplateSpec>,
) -> ErrorList {
    let mut errs = ErrorList::new();
    let spec = path.child("spec");
    if let Some(job) = &obj.spec {
        if let Some(selector) = &job.selector {
            errs.push(FieldError::invalid(
                &spec.child("selector"),
                json_value(selector),
                "`selector` will be auto-generated",
            ));
        }
        if job.manual_selector == Some(true) {
            errs.push(FieldError::not_supported(
                &spec.child("manualSelector"),
                BadValue::Bool(true),
                &["nil", "false"],
            ));
        }
    }
    let _ = (op, old);
    errs
}

/// `ValidateJobSpecUpdate`: what a Job keeps once created.
pub fn validate_custom_job(op: &Operation, path: &Path<'_>, obj: &Job, old: Option<&Job>) -> ErrorList {
    let mut errs = ErrorList::new();
    let (Some(spec), Some(old)) = (&obj.spec, old.filter(|_| op.is_update()).and_then(|o| o.spec.as_ref())) else {
        return errs;
    };
    let at = path.child("spec");
    // An Indexed Job's completions may change with its parallelism (elastic Indexed Jobs).
    if spec.completion_mode == Some(CompletionMode::IndexedCompletion)
        && let Some(completions) = spec.completions
        && spec.completions != old.completions
        && Some(completions) != spec.parallelism
    {
        errs.push(FieldError::invalid(
            &at.child("completions"),
            i64::from(completions),
            "can only be modified in tandem with spec.parallelism",
        ));
    }
    let mut immutable = |field: &str, same: bool, value: BadValue| {
        if !same {
            errs.push(FieldError::invalid(&at.child(field), value, "field is immutable"));
        }
    };
    if spec.completion_mode != Some(CompletionMode::IndexedCompletion) {
        immutable(
            "completions",
            spec.completions == old.completions,
            json_value(&spec.completions),
        );
    }
    immutable("selector", spec.selector == old.selector, json_value(&spec.selector));
    immutable(
        "completionMode",
        spec.completion_mode == old.completion_mode,
        json_value(&spec.completion_mode),
    );
    immutable(
        "podFailurePolicy",
        spec.pod_failure_policy == old.pod_failure_policy,
        json_value(&spec.pod_failure_policy),
    );
    immutable(
        "backoffLimitPerIndex",
        spec.backoff_limit_per_index == old.backoff_limit_per_index,
        json_value(&spec.backoff_limit_per_index),
    );
    immutable(
        "managedBy",
        spec.managed_by == old.managed_by,
        json_value(&spec.managed_by),
    );
    immutable(
        "successPolicy",
        spec.success_policy == old.success_policy,
        json_value(&spec.success_policy),
    );
    // A suspended Job's template may change (its scheduling directives and resources, which
    // Kubernetes narrows further with feature gates); a running Job's may not.
    if old.suspend != Some(true) {
        immutable("template", spec.template == old.template, BadValue::Omitted);
    }
    errs
}
