//! A container's probes and lifecycle hooks as Kubernetes' pkg/apis/core/validation checks them
//! (`validateLivenessProbe`, `validateReadinessProbe`, `validateStartupProbe`, `validateLifecycle`,
//! `validateHandler`): exactly one handler each, the handler's command, path and port, counts
//! that are not negative, liveness and startup probes that succeed at once, no grace period on a
//! readiness probe, a sleep within the pod's grace period; an init container that does not
//! restart Always has none of them.

use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube_apimachinery::validation::{ErrorList, FieldError, Path};

use super::service_validation::{port_name, port_number};
use super::{Container, ExecAction, GRPCAction, HTTPGetAction, LifecycleHandler, Probe, SleepAction, TCPSocketAction};

/// What a container may not have unless it restarts Always (`validateInitContainers`).
const INIT_ONLY_WITH_ALWAYS: &str = "may not be set for init containers without restartPolicy=Always";

/// The probes and hooks of container `c` at `path`; `init` for an init container; `grace` the
/// pod's `terminationGracePeriodSeconds`; `has_os` whether the pod names its OS.
pub(super) fn container_handler_errors(
    path: &Path<'_>,
    c: &Container,
    init: bool,
    grace: Option<i64>,
    has_os: bool,
    errs: &mut ErrorList,
) {
    if init && c.restart_policy.as_deref() != Some("Always") {
        let parts = [
            ("lifecycle", c.lifecycle.is_some()),
            ("livenessProbe", c.liveness_probe.is_some()),
            ("readinessProbe", c.readiness_probe.is_some()),
            ("startupProbe", c.startup_probe.is_some()),
        ];
        for (field, _) in parts.iter().filter(|(_, set)| *set) {
            errs.push(FieldError::forbidden(&path.child(field), INIT_ONLY_WITH_ALWAYS));
        }
        return;
    }
    if let Some(lifecycle) = &c.lifecycle {
        let at = path.child("lifecycle");
        for (field, hook) in [("postStart", &lifecycle.post_start), ("preStop", &lifecycle.pre_stop)] {
            if let Some(hook) = hook {
                lifecycle_handler_errors(&at.child(field), hook, grace, errs);
            }
        }
        if lifecycle.stop_signal.is_some() && !has_os {
            errs.push(FieldError::forbidden(
                &at.child("stopSignal"),
                "may not be set for containers with empty `spec.os.name`",
            ));
        }
    }
    for (field, probe) in [
        ("livenessProbe", &c.liveness_probe),
        ("readinessProbe", &c.readiness_probe),
        ("startupProbe", &c.startup_probe),
    ] {
        let Some(probe) = probe else { continue };
        let at = path.child(field);
        probe_errors(&at, probe, errs);
        // A probe that is not read with readiness decides at its first success.
        if field != "readinessProbe"
            && let Some(n) = probe.success_threshold.filter(|n| *n != 1)
        {
            errs.push(FieldError::invalid(
                &at.child("successThreshold"),
                i64::from(n),
                "must be 1",
            ));
        }
        if field == "readinessProbe"
            && let Some(seconds) = probe.termination_grace_period_seconds
        {
            errs.push(FieldError::invalid(
                &at.child("terminationGracePeriodSeconds"),
                seconds,
                "must not be set for readinessProbes",
            ));
        }
    }
}

/// `validateProbe`: one handler, and no negative count.
fn probe_errors(path: &Path<'_>, probe: &Probe, errs: &mut ErrorList) {
    let h = &probe.probe_handler;
    handler_errors(
        path,
        [
            ("exec", h.exec.as_ref().map(Handler::Exec)),
            ("httpGet", h.http_get.as_ref().map(Handler::HttpGet)),
            ("tcpSocket", h.tcp_socket.as_ref().map(Handler::TcpSocket)),
            ("grpc", h.grpc.as_ref().map(Handler::Grpc)),
        ],
        None,
        errs,
    );
    for (field, value) in [
        ("initialDelaySeconds", probe.initial_delay_seconds),
        ("timeoutSeconds", probe.timeout_seconds),
        ("periodSeconds", probe.period_seconds),
        ("successThreshold", probe.success_threshold),
        ("failureThreshold", probe.failure_threshold),
    ] {
        if let Some(n) = value.filter(|n| *n < 0) {
            errs.push(FieldError::invalid(
                &path.child(field),
                i64::from(n),
                "must be greater than or equal to 0",
            ));
        }
    }
    if let Some(seconds) = probe.termination_grace_period_seconds.filter(|s| *s <= 0) {
        errs.push(FieldError::invalid(
            &path.child("terminationGracePeriodSeconds"),
            seconds,
            "must be greater than 0",
        ));
    }
}

/// A lifecycle hook: one handler, a sleep within the pod's grace period.
fn lifecycle_handler_errors(path: &Path<'_>, hook: &LifecycleHandler, grace: Option<i64>, errs: &mut ErrorList) {
    handler_errors(
        path,
        [
            ("exec", hook.exec.as_ref().map(Handler::Exec)),
            ("httpGet", hook.http_get.as_ref().map(Handler::HttpGet)),
            ("tcpSocket", hook.tcp_socket.as_ref().map(Handler::TcpSocket)),
            ("sleep", hook.sleep.as_ref().map(Handler::Sleep)),
        ],
        grace,
        errs,
    );
}

/// One of the actions a probe or hook may take.
enum Handler<'a> {
    Exec(&'a ExecAction),
    HttpGet(&'a HTTPGetAction),
    TcpSocket(&'a TCPSocketAction),
    Grpc(&'a GRPCAction),
    Sleep(&'a SleepAction),
}

/// `validateHandler`: the first handler given is checked, every later one is forbidden, and
/// none at all is required.
fn handler_errors<'a, const N: usize>(
    path: &Path<'_>,
    handlers: [(&str, Option<Handler<'a>>); N],
    grace: Option<i64>,
    errs: &mut ErrorList,
) {
    let mut given = 0;
    for (field, handler) in handlers {
        let Some(handler) = handler else { continue };
        let at = path.child(field);
        given += 1;
        if given > 1 {
            errs.push(FieldError::forbidden(&at, "may not specify more than 1 handler type"));
            continue;
        }
        match handler {
            Handler::Exec(exec) => {
                if exec.command.as_ref().is_none_or(Vec::is_empty) {
                    errs.push(FieldError::required(&at.child("command"), ""));
                }
            }
            Handler::HttpGet(get) => {
                if get.path.as_deref().unwrap_or_default().is_empty() {
                    errs.push(FieldError::required(&at.child("path"), ""));
                }
                port_errors(&at.child("port"), &get.port, errs);
            }
            Handler::TcpSocket(tcp) => port_errors(&at.child("port"), &tcp.port, errs),
            Handler::Grpc(grpc) => port_errors(&at.child("port"), &IntOrString::Int(grpc.port), errs),
            Handler::Sleep(sleep) => {
                if let Some(grace) = grace.filter(|g| sleep.seconds < 0 || sleep.seconds > *g) {
                    errs.push(FieldError::invalid(
                        &at,
                        sleep.seconds,
                        format!("must be non-negative and less than terminationGracePeriodSeconds ({grace})"),
                    ));
                }
            }
        }
    }
    if given == 0 {
        errs.push(FieldError::required(path, "must specify a handler type"));
    }
}

/// `ValidatePortNumOrName`.
fn port_errors(path: &Path<'_>, port: &IntOrString, errs: &mut ErrorList) {
    match port {
        IntOrString::Int(n) => {
            if let Some(m) = port_number(*n) {
                errs.push(FieldError::invalid(path, i64::from(*n), m));
            }
        }
        IntOrString::String(name) => {
            for m in port_name(name) {
                errs.push(FieldError::invalid(path, name.as_str(), m));
            }
        }
    }
}
