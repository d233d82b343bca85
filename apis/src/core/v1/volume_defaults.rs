//! Hand-written defaults of core/v1's volumes and storage kinds, as Kubernetes'
//! pkg/apis/core/v1/defaults.go sets them: the file modes of projected files, an hour for a
//! projected token, a volume without a source an emptyDir, and PersistentVolumes and claims
//! Pending on a filesystem.

use super::{
    ConfigMapVolumeSource, DownwardAPIVolumeSource, EmptyDirVolumeSource, HostPathType, HostPathVolumeSource,
    PersistentVolume, PersistentVolumeClaim, PersistentVolumeClaimPhase, PersistentVolumeClaimSpec,
    PersistentVolumeMode, PersistentVolumePhase, PersistentVolumeReclaimPolicy, ProjectedVolumeSource, PullPolicy,
    SecretVolumeSource, ServiceAccountTokenProjection, Volume, VolumeSource,
};

/// The mode of files a Secret, ConfigMap, downward API or projected volume writes: 0644.
pub const DEFAULT_VOLUME_FILE_MODE: i32 = 0o644;

/// How long a projected ServiceAccount token lives by default: an hour.
const DEFAULT_TOKEN_EXPIRATION_SECONDS: i64 = 3600;

/// Volume defaults: no source is an emptyDir; an image volume pulls as a container's image does.
pub fn set_defaults_volume(obj: &mut Volume) {
    if obj.volume_source == VolumeSource::default() {
        obj.volume_source.empty_dir = Some(EmptyDirVolumeSource::default());
    }
    if let Some(image) = obj.volume_source.image.as_mut()
        && image.pull_policy.is_none()
    {
        let latest = super::defaults::image_tag(image.reference.as_deref().unwrap_or_default()) == Some("latest");
        image.pull_policy = Some(if latest {
            PullPolicy::PullAlways
        } else {
            PullPolicy::PullIfNotPresent
        });
    }
}

/// SecretVolumeSource defaults: files 0644.
pub fn set_defaults_secret_volume_source(obj: &mut SecretVolumeSource) {
    obj.default_mode.get_or_insert(DEFAULT_VOLUME_FILE_MODE);
}

/// ConfigMapVolumeSource defaults: files 0644.
pub fn set_defaults_config_map_volume_source(obj: &mut ConfigMapVolumeSource) {
    obj.default_mode.get_or_insert(DEFAULT_VOLUME_FILE_MODE);
}

/// DownwardAPIVolumeSource defaults: files 0644.
pub fn set_defaults_downward_api_volume_source(obj: &mut DownwardAPIVolumeSource) {
    obj.default_mode.get_or_insert(DEFAULT_VOLUME_FILE_MODE);
}

/// ProjectedVolumeSource defaults: files 0644.
pub fn set_defaults_projected_volume_source(obj: &mut ProjectedVolumeSource) {
    obj.default_mode.get_or_insert(DEFAULT_VOLUME_FILE_MODE);
}

/// ServiceAccountTokenProjection defaults: a token of an hour.
pub fn set_defaults_service_account_token_projection(obj: &mut ServiceAccountTokenProjection) {
    obj.expiration_seconds.get_or_insert(DEFAULT_TOKEN_EXPIRATION_SECONDS);
}

/// HostPathVolumeSource defaults: the unset type, written as `""`.
pub fn set_defaults_host_path_volume_source(obj: &mut HostPathVolumeSource) {
    obj.type_.get_or_insert(HostPathType::HostPathUnset);
}

/// PersistentVolume defaults: Pending, its claim's release retaining it, a filesystem.
pub fn set_defaults_persistent_volume(obj: &mut PersistentVolume) {
    let status = obj.status.get_or_insert_with(Default::default);
    status.phase.get_or_insert(PersistentVolumePhase::VolumePending);
    let spec = obj.spec.get_or_insert_with(Default::default);
    spec.persistent_volume_reclaim_policy
        .get_or_insert(PersistentVolumeReclaimPolicy::PersistentVolumeReclaimRetain);
    spec.volume_mode
        .get_or_insert(PersistentVolumeMode::PersistentVolumeFilesystem);
}

/// PersistentVolumeClaim defaults: Pending.
pub fn set_defaults_persistent_volume_claim(obj: &mut PersistentVolumeClaim) {
    let status = obj.status.get_or_insert_with(Default::default);
    status.phase.get_or_insert(PersistentVolumeClaimPhase::ClaimPending);
}

/// PersistentVolumeClaimSpec defaults: a filesystem.
pub fn set_defaults_persistent_volume_claim_spec(obj: &mut PersistentVolumeClaimSpec) {
    obj.volume_mode
        .get_or_insert(PersistentVolumeMode::PersistentVolumeFilesystem);
}
