//! The authorization filter: whether the request's user may do what it asks, decided by the
//! server's authorizers after authentication, audit and impersonation; a server without them lets
//! every request through. The decision is noted for audit.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::Filters;
use crate::audit::Notes;
use crate::authentication::user_of;
use crate::authorization::Attributes;

/// The filter.
pub async fn authorize(State(filters): State<Arc<Filters>>, request: Request, next: Next) -> Response {
    let checked = match &filters.authorization {
        None => Ok(()),
        Some(authorization) => {
            let info = super::request_info::of(&request);
            let user = user_of(request.extensions());
            authorization.ready().await;
            authorization.check(&Attributes {
                user: &user,
                request: &info,
            })
        }
    };
    if let Some(notes) = request.extensions().get::<Notes>() {
        notes.decided(checked.is_ok());
    }
    if let Err(refused) = checked {
        return refused.into_response();
    }
    next.run(request).await
}
