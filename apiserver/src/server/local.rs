//! The server in process behind a `kube::Client` (feature `local`), with the reactors and the
//! record of actions of client-go's fake clientset: what the generated fake clientset runs on.
//!
//! client-go's fake answers from an object tracker that re-implements a little of the server
//! (no field selectors, no status semantics, apply only recently); this one answers from the
//! server itself, the registry over the embedded store, reached without a socket. So a test on
//! the fake sees what a client of a real server sees: resourceVersions, 409 on a stale update,
//! generateName, selectors, status and scale subresources, watch, apply with field managers.

use std::sync::{Arc, Mutex, PoisonError};

use axum::body::Body;
use axum::response::IntoResponse;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use crate::Server;
use crate::endpoints::respond::json_response;
use crate::request::RequestInfo;
use crate::status::ApiError;

/// One request the client sent, as client-go's `testing.Action` describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// `get`, `list`, `watch`, `create`, `update`, `patch`, `delete` or `deletecollection`.
    pub verb: String,
    /// The API group (empty for the core group).
    pub group: String,
    /// The version.
    pub version: String,
    /// The resource (plural).
    pub resource: String,
    /// The subresource (`status`, `scale`).
    pub subresource: Option<String>,
    /// The namespace the path names.
    pub namespace: Option<String>,
    /// The object's name the path names.
    pub name: Option<String>,
    /// The request body, when it is JSON (objects, patches).
    pub body: Option<Value>,
}

impl Action {
    /// Whether the action is `verb` on `resource`, where `*` matches any; `resource` may name a
    /// subresource as `deployments/scale`, as client-go's reactors do.
    pub fn matches(&self, verb: &str, resource: &str) -> bool {
        let full = match &self.subresource {
            Some(s) => format!("{}/{s}", self.resource),
            None => self.resource.clone(),
        };
        (verb == "*" || verb == self.verb) && (resource == "*" || resource == full)
    }
}

/// What a reactor answers: a response body (sent with 200), or an error sent as a Status.
pub type Reaction = Result<Value, ApiError>;

/// A reactor: `Some` answers the action in place of the server, `None` passes it on.
pub type Reactor = dyn Fn(&Action) -> Option<Reaction> + Send + Sync;

#[derive(Default)]
struct State {
    reactors: Vec<(String, String, Arc<Reactor>)>,
    actions: Vec<Action>,
}

/// A server in process: clients over it, reactors in front of it, and the actions it saw.
#[derive(Clone)]
pub struct Local {
    server: Arc<Server>,
    router: axum::Router,
    state: Arc<Mutex<State>>,
}

impl Local {
    /// The in-process front of `server`.
    pub fn new(server: Server) -> Self {
        let server = Arc::new(server);
        Local {
            router: server.clone().router(),
            server,
            state: Arc::default(),
        }
    }

    /// The server behind it.
    pub fn server(&self) -> &Arc<Server> {
        &self.server
    }

    /// A `kube::Client` whose requests this server answers, with `default` as its default
    /// namespace. As `kube::Client::new`, it must be called inside a Tokio runtime.
    pub fn client(&self) -> kube::Client {
        let this = self.clone();
        let service = tower::service_fn(move |req: axum::http::Request<kube::client::Body>| {
            let this = this.clone();
            async move { Ok::<_, std::convert::Infallible>(this.handle(req).await) }
        });
        kube::Client::new(service, "default")
    }

    /// Creates each object through the server, by its apiVersion and kind, as client-go's
    /// `NewSimpleClientset(objects...)` fills its tracker; the creates are not recorded as
    /// actions. An object of a kind the server does not serve, or one it refuses, is an error.
    pub async fn create_objects(&self, objects: impl IntoIterator<Item = Value>) -> kube::Result<()> {
        let client = self.client();
        for object in objects {
            let path = self
                .collection_path(&object)
                .map_err(|e| kube::Error::BuildRequest(kube::core::request::Error::Validation(e)))?;
            let body = serde_json::to_vec(&object).map_err(kube::Error::SerdeError)?;
            let request = axum::http::Request::post(path)
                .header("content-type", "application/json")
                .body(body)
                .map_err(|e| kube::Error::BuildRequest(kube::core::request::Error::BuildRequest(e)))?;
            client.request::<Value>(request).await?;
        }
        self.clear_actions();
        Ok(())
    }

    /// Where an object is created: `/apis/<group>/<version>/[namespaces/<ns>/]<resource>`.
    fn collection_path(&self, object: &Value) -> Result<String, String> {
        let api_version = object["apiVersion"].as_str().ok_or("an object without apiVersion")?;
        let kind = object["kind"].as_str().ok_or("an object without kind")?;
        let gv = kube_apimachinery::GroupVersion::parse_api_version(api_version).map_err(|e| e.to_string())?;
        let registry = self.server.registry();
        let resource = registry
            .installed
            .resources
            .get(&gv)
            .and_then(|rs| rs.iter().find(|r| r.subresource.is_none() && r.mapping.kind == kind))
            .ok_or_else(|| format!("the server does not serve {api_version} {kind}"))?;
        let root = if gv.group.is_empty() {
            format!("/api/{}", gv.version)
        } else {
            format!("/apis/{}/{}", gv.group, gv.version)
        };
        let namespace = object["metadata"]["namespace"].as_str().unwrap_or("default");
        Ok(match resource.mapping.namespaced() {
            true => format!("{root}/namespaces/{namespace}/{}", resource.mapping.resource),
            false => format!("{root}/{}", resource.mapping.resource),
        })
    }

    /// Puts a reactor before the others (client-go's `PrependReactor`): it sees every action of
    /// `verb` on `resource` (`*` for any) first.
    pub fn prepend_reactor(
        &self,
        verb: &str,
        resource: &str,
        reactor: impl Fn(&Action) -> Option<Reaction> + Send + Sync + 'static,
    ) {
        self.lock()
            .reactors
            .insert(0, (verb.to_string(), resource.to_string(), Arc::new(reactor)));
    }

    /// Every action so far, in order.
    pub fn actions(&self) -> Vec<Action> {
        self.lock().actions.clone()
    }

    /// Forgets the recorded actions.
    pub fn clear_actions(&self) {
        self.lock().actions.clear();
    }

    /// A request body as an action holds it: JSON as sent, and a protobuf body (what the
    /// clientset sends for built-in kinds) read through the server's scheme into JSON of its own
    /// version, so that reactors and assertions see the object either way.
    fn action_body(&self, bytes: &[u8]) -> Option<Value> {
        if !kube_apimachinery::protobuf::is_protobuf(bytes) {
            return serde_json::from_slice(bytes).ok();
        }
        let codec = kube_apimachinery::codec::Codec::new(self.server.scheme());
        let envelope = kube_apimachinery::protobuf::Unknown::decode(bytes).ok()?;
        let gv = kube_apimachinery::GroupVersion::parse_api_version(&envelope.api_version).ok()?;
        let obj = codec.decode_to_version(bytes, &gv).ok()?;
        codec.encode_value(obj.as_ref(), &gv).ok()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A reactor that panicked leaves the lists intact.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn handle(&self, req: axum::http::Request<kube::client::Body>) -> axum::response::Response {
        let (parts, body) = req.into_parts();
        let bytes = match body.collect().await {
            Ok(b) => b.to_bytes(),
            Err(e) => return ApiError::bad_request(format!("reading the request body: {e}")).into_response(),
        };
        // Read once here, for the action, and kept for the server's filters.
        let info = RequestInfo::new(parts.method.as_str(), parts.uri.path(), parts.uri.query());
        if info.routable() {
            let action = Action {
                verb: info.verb.clone(),
                group: info.api_group.clone(),
                version: info.api_version.clone(),
                resource: info.resource.clone(),
                subresource: info.path_subresource().map(str::to_string),
                namespace: info.path_namespace().map(str::to_string),
                name: info.path_name().map(str::to_string),
                body: self.action_body(&bytes),
            };
            let reactors: Vec<Arc<Reactor>> = {
                let mut state = self.lock();
                state.actions.push(action.clone());
                state
                    .reactors
                    .iter()
                    .filter(|(v, r, _)| action.matches(v, r))
                    .map(|(_, _, f)| f.clone())
                    .collect()
            };
            for reactor in reactors {
                match reactor(&action) {
                    Some(Ok(value)) => return json_response(value),
                    Some(Err(e)) => return e.into_response(),
                    None => {}
                }
            }
        }
        let mut req = axum::http::Request::from_parts(parts, Body::from(bytes));
        req.extensions_mut().insert(info);
        match self.router.clone().oneshot(req).await {
            Ok(r) => r,
            Err(never) => match never {},
        }
    }
}
