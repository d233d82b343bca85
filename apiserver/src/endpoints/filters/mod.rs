//! The filters every request passes before its handler (k8s.io/apiserver's
//! `pkg/endpoints/filters`), outermost first: [`request_info`] reads what the request asks once,
//! [`authentication`] finds who sends it, [`audit`] records it, [`impersonation`] acts as whom
//! the headers name, and [`authorization`] decides whether that user may.

pub mod audit;
pub mod authentication;
pub mod authorization;
pub mod impersonation;
pub mod request_info;

use std::sync::Arc;

use crate::audit::Audit;
use crate::authorization::Authorization;
use crate::convert::Versions;

/// What the filters of a server share.
pub struct Filters {
    /// Who may do what; without it every authenticated request may go on.
    pub authorization: Option<Arc<Authorization>>,
    /// What is recorded of requests, and where; nothing without it.
    pub audit: Option<Arc<Audit>>,
    /// The Scheme's edges, which read the protobuf bodies audit records as JSON.
    pub versions: Versions,
    /// The largest request body accepted.
    pub max_body_bytes: usize,
}
