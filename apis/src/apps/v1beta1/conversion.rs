//! Hand-written conversions of apps/v1beta1 to and from apps/v1, the group's hub: a v1beta1
//! Deployment's `spec.rollbackTo`, which v1 no longer has, travels in the annotation
//! `deprecated.deployment.rollback.to`, as Kubernetes' pkg/apis/apps conversions carry it, so a
//! round trip through v1 keeps it.

use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube_apimachinery::ConversionError;

use super::auto_convert_v1beta1_deployment_to_v1_deployment;
use super::{Deployment, DeploymentSpec, RollbackConfig};
use super::{
    auto_convert_v1_deployment_to_v1beta1_deployment, auto_convert_v1beta1_deployment_spec_to_v1_deployment_spec,
};
use crate::apps::v1;

/// The annotation that carries `spec.rollbackTo.revision` in versions without the field.
pub const DEPRECATED_ROLLBACK_TO: &str = "deprecated.deployment.rollback.to";

/// Converts a v1beta1 DeploymentSpec; `rollbackTo` is carried by the Deployment's annotation (see
/// [`convert_v1beta1_deployment_to_v1_deployment`]), so the spec drops it.
pub fn convert_v1beta1_deployment_spec_to_v1_deployment_spec(
    input: &DeploymentSpec,
    out: &mut v1::DeploymentSpec,
) -> Result<(), ConversionError> {
    auto_convert_v1beta1_deployment_spec_to_v1_deployment_spec(input, out)
}

/// Converts a v1beta1 Deployment; `spec.rollbackTo` becomes the rollback annotation.
pub fn convert_v1beta1_deployment_to_v1_deployment(
    input: &Deployment,
    out: &mut v1::Deployment,
) -> Result<(), ConversionError> {
    auto_convert_v1beta1_deployment_to_v1_deployment(input, out)?;
    let rollback = input.spec.as_ref().and_then(|s| s.rollback_to.as_ref());
    rollback_to_annotation(rollback, &mut out.metadata);
    Ok(())
}

/// Converts a v1 Deployment; the rollback annotation, if any, becomes `spec.rollbackTo` and leaves
/// the annotations.
pub fn convert_v1_deployment_to_v1beta1_deployment(
    input: &v1::Deployment,
    out: &mut Deployment,
) -> Result<(), ConversionError> {
    auto_convert_v1_deployment_to_v1beta1_deployment(input, out)?;
    if let Some(rollback) = rollback_from_annotation(&mut out.metadata)? {
        out.spec.get_or_insert_with(Default::default).rollback_to = Some(rollback);
    }
    Ok(())
}

/// Takes the rollback annotation out of `meta` and parses it.
fn rollback_from_annotation(meta: &mut ObjectMeta) -> Result<Option<RollbackConfig>, ConversionError> {
    let Some(annotations) = meta.annotations.as_mut() else {
        return Ok(None);
    };
    let removed = annotations.remove(DEPRECATED_ROLLBACK_TO);
    // The annotation only carried the field: without it, no annotations is no annotations.
    if removed.is_some() && annotations.is_empty() {
        meta.annotations = None;
    }
    match removed {
        Some(revision) if !revision.is_empty() => match revision.parse::<i64>() {
            Ok(revision) => Ok(Some(RollbackConfig {
                revision: Some(revision),
            })),
            Err(e) => Err(ConversionError::Custom(format!(
                "failed to parse annotation[{DEPRECATED_ROLLBACK_TO}]={revision} as int64: {e}"
            ))),
        },
        _ => Ok(None),
    }
}

/// Writes (or removes) the rollback annotation for `rollback`.
fn rollback_to_annotation(rollback: Option<&RollbackConfig>, meta: &mut ObjectMeta) {
    match rollback {
        Some(r) => {
            meta.annotations.get_or_insert_with(Default::default).insert(
                DEPRECATED_ROLLBACK_TO.into(),
                r.revision.unwrap_or_default().to_string(),
            );
        }
        None => {
            if let Some(a) = meta.annotations.as_mut() {
                a.remove(DEPRECATED_ROLLBACK_TO);
            }
        }
    }
}
