//! A v1 HorizontalPodAutoscaler to and from autoscaling/v2, the group's hub, as Kubernetes'
//! pkg/apis/autoscaling/v1/conversion.go converts it: v1's one CPU utilization target is v2's
//! CPU resource metric, and what v1 cannot say (other metrics, current metrics, conditions,
//! scaling behavior) travels in the annotations `autoscaling.alpha.kubernetes.io/*`, so a v2
//! object read and written back through v1 keeps all of it. The annotations hold v2's JSON;
//! Kubernetes writes its older v1 metric shapes there (which only it reads back).

use std::collections::BTreeMap;

use kube_apimachinery::{ConversionError, Scheme};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{HorizontalPodAutoscaler, HorizontalPodAutoscalerSpec, HorizontalPodAutoscalerStatus};
use crate::autoscaling::v2;

/// The annotation with the metrics besides the CPU utilization target.
pub const METRICS_ANNOTATION: &str = "autoscaling.alpha.kubernetes.io/metrics";
/// The annotation with every current metric.
pub const CURRENT_METRICS_ANNOTATION: &str = "autoscaling.alpha.kubernetes.io/current-metrics";
/// The annotation with the status conditions.
pub const CONDITIONS_ANNOTATION: &str = "autoscaling.alpha.kubernetes.io/conditions";
/// The annotation with the scaling behavior.
pub const BEHAVIOR_ANNOTATION: &str = "autoscaling.alpha.kubernetes.io/behavior";

/// The CPU utilization v2 assumes where v1 names no target (`autoscaling.DefaultCPUUtilization`).
const DEFAULT_CPU_UTILIZATION: i32 = 80;

/// Registers both directions in `scheme`.
pub fn register_horizontal_pod_autoscaler_conversions(scheme: &mut Scheme) {
    scheme.add_conversion_func::<HorizontalPodAutoscaler, v2::HorizontalPodAutoscaler>(
        convert_v1_horizontal_pod_autoscaler_to_v2_horizontal_pod_autoscaler,
    );
    scheme.add_conversion_func::<v2::HorizontalPodAutoscaler, HorizontalPodAutoscaler>(
        convert_v2_horizontal_pod_autoscaler_to_v1_horizontal_pod_autoscaler,
    );
}

/// Whether `m` is the CPU utilization target v1 spells as `targetCPUUtilizationPercentage`.
fn cpu_utilization(m: &v2::MetricSpec) -> Option<i32> {
    let resource = m
        .resource
        .as_ref()
        .filter(|r| m.type_ == "Resource" && r.name == "cpu")?;
    (resource.target.type_ == "Utilization")
        .then_some(resource.target.average_utilization)
        .flatten()
}

/// A v1 HorizontalPodAutoscaler as v2: its CPU target a metric, its annotations read back.
pub fn convert_v1_horizontal_pod_autoscaler_to_v2_horizontal_pod_autoscaler(
    input: &HorizontalPodAutoscaler,
    out: &mut v2::HorizontalPodAutoscaler,
) -> Result<(), ConversionError> {
    let mut metadata = input.metadata.clone();
    let mut annotations = metadata.annotations.take().unwrap_or_default();
    let other: Option<Vec<v2::MetricSpec>> = take(&mut annotations, METRICS_ANNOTATION)?;
    let current: Option<Vec<v2::MetricStatus>> = take(&mut annotations, CURRENT_METRICS_ANNOTATION)?;
    let conditions: Option<Vec<v2::HorizontalPodAutoscalerCondition>> = take(&mut annotations, CONDITIONS_ANNOTATION)?;
    let behavior: Option<v2::HorizontalPodAutoscalerBehavior> = take(&mut annotations, BEHAVIOR_ANNOTATION)?;
    metadata.annotations = (!annotations.is_empty()).then_some(annotations);
    out.metadata = metadata;

    out.spec = input.spec.as_ref().map(|spec| {
        let target = spec.target_cpu_utilization_percentage;
        let mut metrics: Vec<v2::MetricSpec> = target.map(cpu_metric).into_iter().collect();
        metrics.extend(other.unwrap_or_default());
        // v1 without any target meant 80% CPU, which v2 states.
        if metrics.is_empty() {
            metrics.push(cpu_metric(DEFAULT_CPU_UTILIZATION));
        }
        v2::HorizontalPodAutoscalerSpec {
            scale_target_ref: v2::CrossVersionObjectReference {
                kind: spec.scale_target_ref.kind.clone(),
                name: spec.scale_target_ref.name.clone(),
                api_version: spec.scale_target_ref.api_version.clone(),
            },
            min_replicas: spec.min_replicas,
            max_replicas: spec.max_replicas,
            metrics: Some(metrics),
            behavior,
        }
    });
    out.status = input.status.as_ref().map(|status| v2::HorizontalPodAutoscalerStatus {
        observed_generation: status.observed_generation,
        last_scale_time: status.last_scale_time.clone(),
        current_replicas: Some(status.current_replicas),
        desired_replicas: status.desired_replicas,
        // The annotation has every current metric, the CPU one too, with more than v1's field.
        current_metrics: current.unwrap_or_else(|| {
            status
                .current_cpu_utilization_percentage
                .map(|u| v2::MetricStatus {
                    type_: "Resource".into(),
                    resource: Some(v2::ResourceMetricStatus {
                        name: "cpu".into(),
                        current: v2::MetricValueStatus {
                            average_utilization: Some(u),
                            ..Default::default()
                        },
                    }),
                    ..Default::default()
                })
                .into_iter()
                .collect()
        }),
        conditions,
    });
    Ok(())
}

/// A v2 HorizontalPodAutoscaler as v1: its CPU utilization target the field, the rest annotations.
pub fn convert_v2_horizontal_pod_autoscaler_to_v1_horizontal_pod_autoscaler(
    input: &v2::HorizontalPodAutoscaler,
    out: &mut HorizontalPodAutoscaler,
) -> Result<(), ConversionError> {
    let mut metadata = input.metadata.clone();
    let mut annotations = metadata.annotations.take().unwrap_or_default();
    out.spec = input.spec.as_ref().map(|spec| {
        let metrics = spec.metrics.as_deref().unwrap_or_default();
        HorizontalPodAutoscalerSpec {
            scale_target_ref: super::CrossVersionObjectReference {
                kind: spec.scale_target_ref.kind.clone(),
                name: spec.scale_target_ref.name.clone(),
                api_version: spec.scale_target_ref.api_version.clone(),
            },
            min_replicas: spec.min_replicas,
            max_replicas: spec.max_replicas,
            target_cpu_utilization_percentage: metrics.iter().find_map(cpu_utilization),
        }
    });
    if let Some(spec) = &input.spec {
        let metrics = spec.metrics.as_deref().unwrap_or_default();
        let mut first_cpu = true;
        let other: Vec<&v2::MetricSpec> = metrics
            .iter()
            .filter(|m| !(cpu_utilization(m).is_some() && std::mem::replace(&mut first_cpu, false)))
            .collect();
        put(
            &mut annotations,
            METRICS_ANNOTATION,
            (!other.is_empty()).then_some(&other),
        )?;
        put(&mut annotations, BEHAVIOR_ANNOTATION, spec.behavior.as_ref())?;
    }
    out.status = input.status.as_ref().map(|status| HorizontalPodAutoscalerStatus {
        observed_generation: status.observed_generation,
        last_scale_time: status.last_scale_time.clone(),
        current_replicas: status.current_replicas.unwrap_or_default(),
        desired_replicas: status.desired_replicas,
        current_cpu_utilization_percentage: status.current_metrics.iter().find_map(|m| {
            let resource = m
                .resource
                .as_ref()
                .filter(|r| m.type_ == "Resource" && r.name == "cpu")?;
            resource.current.average_utilization
        }),
    });
    if let Some(status) = &input.status {
        let current = &status.current_metrics;
        put(
            &mut annotations,
            CURRENT_METRICS_ANNOTATION,
            (!current.is_empty()).then_some(current),
        )?;
        put(
            &mut annotations,
            CONDITIONS_ANNOTATION,
            status.conditions.as_ref().filter(|c| !c.is_empty()),
        )?;
    }
    metadata.annotations = (!annotations.is_empty()).then_some(annotations);
    out.metadata = metadata;
    Ok(())
}

/// v2's CPU utilization metric.
fn cpu_metric(utilization: i32) -> v2::MetricSpec {
    v2::MetricSpec {
        type_: "Resource".into(),
        resource: Some(v2::ResourceMetricSource {
            name: "cpu".into(),
            target: v2::MetricTarget {
                type_: "Utilization".into(),
                average_utilization: Some(utilization),
                ..Default::default()
            },
        }),
        ..Default::default()
    }
}

/// Takes `key` out of `annotations` and reads it as JSON.
fn take<T: DeserializeOwned>(
    annotations: &mut BTreeMap<String, String>,
    key: &str,
) -> Result<Option<T>, ConversionError> {
    let Some(text) = annotations.remove(key) else {
        return Ok(None);
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| ConversionError::Custom(format!("annotation {key}: {e}")))
}

/// Writes `value` as JSON under `key`, or removes `key` when there is none.
fn put<T: Serialize>(
    annotations: &mut BTreeMap<String, String>,
    key: &str,
    value: Option<T>,
) -> Result<(), ConversionError> {
    match value {
        Some(v) => {
            let text =
                serde_json::to_string(&v).map_err(|e| ConversionError::Custom(format!("annotation {key}: {e}")))?;
            annotations.insert(key.to_string(), text);
        }
        None => {
            annotations.remove(key);
        }
    }
    Ok(())
}
