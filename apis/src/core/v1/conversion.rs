//! Hand-written conversions of core/v1, where the internal types differ beyond the generator's
//! rules (as Kubernetes' pkg/apis/core/v1/conversion.go): `hostNetwork` lives in the internal
//! pod security context, and the single `podIP` is the first of the internal `podIPs`.

use kube_apimachinery::ConversionError;

use super::{
    PodSpec, PodStatus, auto_convert_core_pod_spec_to_v1_pod_spec, auto_convert_core_pod_status_to_v1_pod_status,
};
use super::{auto_convert_v1_pod_spec_to_core_pod_spec, auto_convert_v1_pod_status_to_core_pod_status};
use crate::core;

/// Converts a v1 PodSpec; `hostNetwork` moves into the internal security context, which the
/// internal version always has.
pub fn convert_v1_pod_spec_to_core_pod_spec(input: &PodSpec, out: &mut core::PodSpec) -> Result<(), ConversionError> {
    auto_convert_v1_pod_spec_to_core_pod_spec(input, out)?;
    out.security_context.get_or_insert_with(Default::default).host_network = input.host_network;
    Ok(())
}

/// Converts an internal PodSpec; the security context's `hostNetwork` comes back to the top
/// level (omitted on the wire when false, as Go's `omitempty` omits it).
pub fn convert_core_pod_spec_to_v1_pod_spec(input: &core::PodSpec, out: &mut PodSpec) -> Result<(), ConversionError> {
    auto_convert_core_pod_spec_to_v1_pod_spec(input, out)?;
    out.host_network = input.security_context.as_ref().is_some_and(|s| s.host_network);
    Ok(())
}

/// Converts a v1 PodStatus. `podIP` is authoritative: an old client that changed only `podIP`
/// must not be overruled by a stale `podIPs`, so when the two disagree `podIPs` becomes `[podIP]`.
pub fn convert_v1_pod_status_to_core_pod_status(
    input: &PodStatus,
    out: &mut core::PodStatus,
) -> Result<(), ConversionError> {
    auto_convert_v1_pod_status_to_core_pod_status(input, out)?;
    if let Some(ip) = Some(&input.pod_ip).filter(|ip| !ip.is_empty())
        && out.pod_ips.first().is_none_or(|first| &first.ip != ip)
    {
        out.pod_ips = vec![core::PodIP { ip: ip.clone() }];
    }
    Ok(())
}

/// Converts an internal PodStatus; `podIP` mirrors the first of `podIPs`.
pub fn convert_core_pod_status_to_v1_pod_status(
    input: &core::PodStatus,
    out: &mut PodStatus,
) -> Result<(), ConversionError> {
    auto_convert_core_pod_status_to_v1_pod_status(input, out)?;
    out.pod_ip = input.pod_ips.first().map(|p| p.ip.clone()).unwrap_or_default();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::v1::PodIP;

    #[test]
    fn host_network_moves_into_the_security_context_and_back() {
        let v1 = PodSpec {
            host_network: true,
            ..Default::default()
        };
        let mut internal = core::PodSpec::default();
        convert_v1_pod_spec_to_core_pod_spec(&v1, &mut internal).unwrap();
        assert!(internal.security_context.as_ref().unwrap().host_network);
        let mut back = PodSpec::default();
        convert_core_pod_spec_to_v1_pod_spec(&internal, &mut back).unwrap();
        assert!(back.host_network);
    }

    #[test]
    fn pod_ip_is_the_first_pod_ips_entry() {
        let v1 = PodStatus {
            pod_ip: "10.0.0.1".into(),
            ..Default::default()
        };
        let mut internal = core::PodStatus::default();
        convert_v1_pod_status_to_core_pod_status(&v1, &mut internal).unwrap();
        assert_eq!(internal.pod_ips, [core::PodIP { ip: "10.0.0.1".into() }]);
        let mut back = PodStatus::default();
        convert_core_pod_status_to_v1_pod_status(&internal, &mut back).unwrap();
        assert_eq!(back.pod_ip, "10.0.0.1");
        assert_eq!(back.pod_ips, Some(vec![PodIP { ip: "10.0.0.1".into() }]));
    }
}
