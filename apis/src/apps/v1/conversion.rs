//! Hand-written conversions of apps/v1 (as Kubernetes' pkg/apis/apps/v1/conversion.go): the
//! internal Deployment keeps `spec.rollbackTo`, which v1 no longer has; it travels in the
//! annotation `deprecated.deployment.rollback.to` so that a round trip keeps it.

use kube_apimachinery::ConversionError;

use super::{Deployment, DeploymentSpec, auto_convert_apps_deployment_spec_to_v1_deployment_spec};
use super::{auto_convert_apps_deployment_to_v1_deployment, auto_convert_v1_deployment_to_apps_deployment};
use crate::apps;

/// The annotation that carries the internal `spec.rollbackTo.revision` in versions without it.
pub const DEPRECATED_ROLLBACK_TO: &str = "deprecated.deployment.rollback.to";

/// Converts an internal DeploymentSpec; `rollbackTo` is carried by the Deployment's annotation
/// (see `convert_apps_deployment_to_v1_deployment`), so the spec drops it.
pub fn convert_apps_deployment_spec_to_v1_deployment_spec(
    input: &apps::DeploymentSpec,
    out: &mut DeploymentSpec,
) -> Result<(), ConversionError> {
    auto_convert_apps_deployment_spec_to_v1_deployment_spec(input, out)
}

/// Converts a v1 Deployment; the rollback annotation, if any, becomes `spec.rollbackTo` and leaves
/// the internal annotations.
pub fn convert_v1_deployment_to_apps_deployment(
    input: &Deployment,
    out: &mut apps::Deployment,
) -> Result<(), ConversionError> {
    auto_convert_v1_deployment_to_apps_deployment(input, out)?;
    out.spec.rollback_to = rollback_from_annotation(&mut out.metadata)?;
    Ok(())
}

/// Converts an internal Deployment; `spec.rollbackTo` becomes the rollback annotation.
pub fn convert_apps_deployment_to_v1_deployment(
    input: &apps::Deployment,
    out: &mut Deployment,
) -> Result<(), ConversionError> {
    auto_convert_apps_deployment_to_v1_deployment(input, out)?;
    rollback_to_annotation(input.spec.rollback_to.as_ref(), &mut out.metadata);
    Ok(())
}

/// Takes the rollback annotation out of `meta` and parses it. Shared by every version that
/// carries `rollbackTo` as an annotation (v1, v1beta2).
pub fn rollback_from_annotation(
    meta: &mut k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
) -> Result<Option<apps::RollbackConfig>, ConversionError> {
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
            Ok(revision) => Ok(Some(apps::RollbackConfig { revision })),
            Err(e) => Err(ConversionError::Custom(format!(
                "failed to parse annotation[{DEPRECATED_ROLLBACK_TO}]={revision} as int64: {e}"
            ))),
        },
        _ => Ok(None),
    }
}

/// Writes (or removes) the rollback annotation for `rollback`.
pub fn rollback_to_annotation(
    rollback: Option<&apps::RollbackConfig>,
    meta: &mut k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
) {
    match rollback {
        Some(r) => {
            meta.annotations
                .get_or_insert_with(Default::default)
                .insert(DEPRECATED_ROLLBACK_TO.into(), r.revision.to_string());
        }
        None => {
            if let Some(a) = meta.annotations.as_mut() {
                a.remove(DEPRECATED_ROLLBACK_TO);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rollback_travels_in_the_annotation() {
        let mut internal = apps::Deployment::default();
        internal.spec.rollback_to = Some(apps::RollbackConfig { revision: 3 });
        let mut v1 = Deployment::default();
        convert_apps_deployment_to_v1_deployment(&internal, &mut v1).unwrap();
        assert_eq!(v1.metadata.annotations.as_ref().unwrap()[DEPRECATED_ROLLBACK_TO], "3");
        let mut back = apps::Deployment::default();
        convert_v1_deployment_to_apps_deployment(&v1, &mut back).unwrap();
        assert_eq!(back.spec.rollback_to, Some(apps::RollbackConfig { revision: 3 }));
        assert_eq!(back.metadata.annotations, None, "the annotation does not stay internal");
    }

    #[test]
    fn a_bad_revision_is_an_error() {
        let mut v1 = Deployment::default();
        v1.metadata.annotations = Some([(DEPRECATED_ROLLBACK_TO.to_string(), "x".to_string())].into());
        let err = convert_v1_deployment_to_apps_deployment(&v1, &mut apps::Deployment::default()).unwrap_err();
        assert!(
            err.to_string()
                .contains("failed to parse annotation[deprecated.deployment.rollback.to]=x"),
            "{err}"
        );
    }
}
