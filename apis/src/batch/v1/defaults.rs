//! Hand-written defaults of batch/v1, as Kubernetes' pkg/apis/batch/v1/defaults.go sets them; the
//! generated `set_object_defaults_*` call these and walk into the pod templates.

use super::{CompletionMode, ConcurrencyPolicy, CronJob, Job, PodReplacementPolicy};

/// How many times a failing Job's pods are retried by default.
const DEFAULT_BACKOFF_LIMIT: i32 = 6;

/// Job defaults: one completion at a parallelism of one when neither is given, a backoff limit
/// of six (unbounded per index), the pod template's labels on a Job without labels, NonIndexed
/// completions, not suspended, pod failure patterns matching a True condition, and pods replaced
/// once failed under a pod failure policy, once terminating or failed otherwise.
pub fn set_defaults_job(obj: &mut Job) {
    let Some(spec) = obj.spec.as_mut() else { return };
    if spec.completions.is_none() && spec.parallelism.is_none() {
        spec.completions = Some(1);
    }
    spec.parallelism.get_or_insert(1);
    if spec.backoff_limit.is_none() {
        spec.backoff_limit = Some(if spec.backoff_limit_per_index.is_some() {
            i32::MAX
        } else {
            DEFAULT_BACKOFF_LIMIT
        });
    }
    let template_labels = spec.template.metadata.as_ref().and_then(|m| m.labels.clone());
    if let Some(labels) = template_labels
        && obj.metadata.labels.as_ref().is_none_or(|l| l.is_empty())
    {
        obj.metadata.labels = Some(labels);
    }
    spec.completion_mode.get_or_insert(CompletionMode::NonIndexedCompletion);
    spec.suspend.get_or_insert(false);
    if let Some(policy) = spec.pod_failure_policy.as_mut() {
        for rule in &mut policy.rules {
            for pattern in rule.on_pod_conditions.iter_mut().flatten() {
                if pattern.status.is_empty() {
                    pattern.status = "True".into();
                }
            }
        }
    }
    if spec.pod_replacement_policy.is_none() {
        spec.pod_replacement_policy = Some(if spec.pod_failure_policy.is_some() {
            PodReplacementPolicy::Failed
        } else {
            PodReplacementPolicy::TerminatingOrFailed
        });
    }
}

/// CronJob defaults: concurrent runs allowed, not suspended, three successful and one failed
/// Job kept.
pub fn set_defaults_cron_job(obj: &mut CronJob) {
    let Some(spec) = obj.spec.as_mut() else { return };
    spec.concurrency_policy
        .get_or_insert(ConcurrencyPolicy::AllowConcurrent);
    spec.suspend.get_or_insert(false);
    spec.successful_jobs_history_limit.get_or_insert(3);
    spec.failed_jobs_history_limit.get_or_insert(1);
}
