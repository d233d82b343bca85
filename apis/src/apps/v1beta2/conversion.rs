//! Hand-written conversions of apps/v1beta2: like v1, it has no `spec.rollbackTo`, so the
//! internal field travels in the `deprecated.deployment.rollback.to` annotation.

use kube_apimachinery::ConversionError;

use super::{Deployment, DeploymentSpec, auto_convert_apps_deployment_spec_to_v1beta2_deployment_spec};
use super::{auto_convert_apps_deployment_to_v1beta2_deployment, auto_convert_v1beta2_deployment_to_apps_deployment};
use crate::apps;
use crate::apps::v1::{rollback_from_annotation, rollback_to_annotation};

/// Converts an internal DeploymentSpec; `rollbackTo` is carried by the Deployment's annotation.
pub fn convert_apps_deployment_spec_to_v1beta2_deployment_spec(
    input: &apps::DeploymentSpec,
    out: &mut DeploymentSpec,
) -> Result<(), ConversionError> {
    auto_convert_apps_deployment_spec_to_v1beta2_deployment_spec(input, out)
}

/// Converts a v1beta2 Deployment; the rollback annotation becomes `spec.rollbackTo`.
pub fn convert_v1beta2_deployment_to_apps_deployment(
    input: &Deployment,
    out: &mut apps::Deployment,
) -> Result<(), ConversionError> {
    auto_convert_v1beta2_deployment_to_apps_deployment(input, out)?;
    out.spec.rollback_to = rollback_from_annotation(&mut out.metadata)?;
    Ok(())
}

/// Converts an internal Deployment; `spec.rollbackTo` becomes the rollback annotation.
pub fn convert_apps_deployment_to_v1beta2_deployment(
    input: &apps::Deployment,
    out: &mut Deployment,
) -> Result<(), ConversionError> {
    auto_convert_apps_deployment_to_v1beta2_deployment(input, out)?;
    rollback_to_annotation(input.spec.rollback_to.as_ref(), &mut out.metadata);
    Ok(())
}
