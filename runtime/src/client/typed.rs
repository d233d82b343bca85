//! The typed client of every generated kind: [`TypedClient`] over `kube::Api`, with each standard
//! verb written once here. Which verbs a kind's client has is what its `+genclient` tags allow,
//! and the generator says it as trait impls on a marker type per kind
//! (`impl verb::Create for DeploymentVerbs {}`): a verb the tags forbid is a method whose bounds
//! are not met, so calling it does not compile. Generated code is then only the marker, its verb
//! impls, a type alias (`pub type DeploymentClient = TypedClient<DeploymentVerbs>`) and the kind's
//! custom `+genclient:method=` methods.

use std::fmt::Debug;
use std::marker::PhantomData;

use either::Either;
use futures::stream::BoxStream;
use k8s_openapi::{ClusterResourceScope, NamespaceResourceScope};
use kube::api::{
    DeleteParams, GetParams, ListParams, ObjectList, Patch, PatchParams, PostParams, WatchEvent, WatchParams,
};
use kube::core::response::Status;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::protobuf::{ProtobufForm, exchange};

/// One kind's client, as the generator describes it: implemented by a marker type per kind
/// (`DeploymentVerbs`), which also implements the traits of [`verb`] the kind's tags allow.
pub trait Verbs: Send + Sync + 'static {
    /// The kind the client reads and writes.
    type Object: kube::Resource<DynamicType = ()> + Clone + Debug + DeserializeOwned + Serialize + Send + Sync + 'static;

    /// The kind's protobuf form, for a kind whose package has protobuf messages: its client then
    /// speaks protobuf (client-go's default for built-in kinds) unless told [`TypedClient::json`].
    fn protobuf() -> Option<&'static dyn ProtobufForm<Self::Object>> {
        None
    }
}

/// The standard verbs of client-gen's typed clients, one marker trait each; a kind's marker
/// implements those its tags allow.
pub mod verb {
    use super::{ApplyConfiguration, Verbs};

    /// `create`: `POST` a new object.
    pub trait Create: Verbs {}
    /// `update`: `PUT` the object.
    pub trait Update: Verbs {}
    /// `updateStatus`: `PUT` the object's status.
    pub trait UpdateStatus: Verbs {}
    /// `delete`: `DELETE` one object.
    pub trait Delete: Verbs {}
    /// `deleteCollection`: `DELETE` the objects a list selects.
    pub trait DeleteCollection: Verbs {}
    /// `get`: read one object.
    pub trait Get: Verbs {}
    /// `list`: read the objects a list selects.
    pub trait List: Verbs {}
    /// `watch`: follow the changes.
    pub trait Watch: Verbs {}
    /// `patch`: JSON, merge, strategic merge or apply patches.
    pub trait Patch: Verbs {}
    /// `apply`: server-side apply of the kind's apply configuration.
    pub trait Apply: Verbs {
        /// What `apply` sends.
        type Configuration: ApplyConfiguration;
    }
    /// `applyStatus`: server-side apply of the status.
    pub trait ApplyStatus: Verbs {
        /// What `apply_status` sends.
        type Configuration: ApplyConfiguration;
    }
}

/// An apply configuration of a kind: what server-side apply sends, naming its object.
pub trait ApplyConfiguration: Serialize + Debug + Send + Sync {
    /// The name the configuration is applied to (`metadata.name`).
    fn name(&self) -> Option<&str>;
}

/// The typed client of one kind (client-go's `DeploymentInterface` and its implementation),
/// over the `kube::Api` of the kind in one namespace, in all, or cluster-wide. The verbs are
/// methods of this type, each present when the kind's marker allows it.
pub struct TypedClient<V: Verbs> {
    api: kube::Api<V::Object>,
    client: kube::Client,
    /// Set while the client speaks protobuf.
    protobuf: Option<&'static dyn ProtobufForm<V::Object>>,
    verbs: PhantomData<fn() -> V>,
}

impl<V: Verbs> Clone for TypedClient<V> {
    fn clone(&self) -> Self {
        Self {
            api: self.api.clone(),
            client: self.client.clone(),
            protobuf: self.protobuf,
            verbs: PhantomData,
        }
    }
}

impl<V: Verbs> Debug for TypedClient<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedClient")
            .field("url", &self.api.resource_url())
            .field("protobuf", &self.protobuf.is_some())
            .finish()
    }
}

impl<V: Verbs> TypedClient<V>
where
    V::Object: kube::Resource<Scope = NamespaceResourceScope>,
{
    /// The client of the kind in `namespace`; `""` reads across all namespaces, as client-go's
    /// `metav1.NamespaceAll`.
    pub fn namespaced(client: kube::Client, namespace: &str) -> Self {
        let api = if namespace.is_empty() {
            kube::Api::all(client.clone())
        } else {
            kube::Api::namespaced(client.clone(), namespace)
        };
        Self::from_api(api, client)
    }
}

impl<V: Verbs> TypedClient<V>
where
    V::Object: kube::Resource<Scope = ClusterResourceScope>,
{
    /// The client of the cluster-scoped kind.
    pub fn cluster(client: kube::Client) -> Self {
        Self::from_api(kube::Api::all(client.clone()), client)
    }
}

impl<V: Verbs> TypedClient<V> {
    /// The client over an `Api` the caller built (another namespace, another `kube::Client`).
    pub fn from_api(api: kube::Api<V::Object>, client: kube::Client) -> Self {
        Self {
            api,
            client,
            protobuf: V::protobuf(),
            verbs: PhantomData,
        }
    }

    /// The same client speaking JSON only (client-go's `ContentType: application/json`).
    pub fn json(mut self) -> Self {
        self.protobuf = None;
        self
    }

    /// Whether requests and answers travel as protobuf (the default for a kind that has a
    /// protobuf form): `get`, `list`, `create`, `update` and `update_status` then do; patches,
    /// deletes and watches stay JSON, as their bodies are.
    pub fn speaks_protobuf(&self) -> bool {
        self.protobuf.is_some()
    }

    /// The request `build` makes with kube's request builder of the client's URL.
    fn build(
        &self,
        build: impl FnOnce(kube::core::Request) -> Result<http::Request<Vec<u8>>, kube::core::request::Error>,
    ) -> kube::Result<http::Request<Vec<u8>>> {
        build(kube::core::Request::new(self.api.resource_url())).map_err(kube::Error::BuildRequest)
    }

    /// The `kube::Api` underneath, for kube-runtime (`watcher`, `Controller::new`) and for the
    /// calls the typed client does not have.
    pub fn api(&self) -> &kube::Api<V::Object> {
        &self.api
    }

    /// The `kube::Api` underneath, by value.
    pub fn into_api(self) -> kube::Api<V::Object> {
        self.api
    }

    /// Sends a request to the kind's URL whose answer is another type than the kind (the custom
    /// `+genclient:method=` methods, such as `get_scale` answering with a Scale): `build` gets
    /// the request builder of the URL the client addresses.
    pub async fn send<R: DeserializeOwned>(
        &self,
        build: impl FnOnce(kube::core::Request) -> Result<http::Request<Vec<u8>>, kube::core::request::Error>,
    ) -> kube::Result<R> {
        let request = self.build(build)?;
        self.client.request::<R>(request).await
    }
}

impl<V: verb::Create> TypedClient<V> {
    /// Creates the object (`POST`); the server answers with it as stored.
    pub async fn create(&self, obj: &V::Object, pp: &PostParams) -> kube::Result<V::Object> {
        let Some(form) = self.protobuf else {
            return self.api.create(pp, obj).await;
        };
        let request = self.build(|r| r.create(pp, Vec::new()))?;
        exchange(&self.client, request, Some(form.encode(obj)), |u| form.decode(u)).await
    }
}

impl<V: verb::Update> TypedClient<V> {
    /// Replaces the object named by its metadata (`PUT`); its `resourceVersion` makes the write
    /// conditional (409 Conflict when stale). A kind with a status subresource keeps the stored
    /// status.
    pub async fn update(&self, obj: &V::Object, pp: &PostParams) -> kube::Result<V::Object> {
        let name = super::name(obj)?;
        let Some(form) = self.protobuf else {
            return self.api.replace(name, pp, obj).await;
        };
        let request = self.build(|r| r.replace(name, pp, Vec::new()))?;
        exchange(&self.client, request, Some(form.encode(obj)), |u| form.decode(u)).await
    }
}

impl<V: verb::UpdateStatus> TypedClient<V> {
    /// Replaces the object's status (`PUT .../status`); the server keeps the stored spec.
    pub async fn update_status(&self, obj: &V::Object, pp: &PostParams) -> kube::Result<V::Object> {
        let name = super::name(obj)?;
        let Some(form) = self.protobuf else {
            return self.api.replace_status(name, pp, obj).await;
        };
        let request = self.build(|r| r.replace_subresource("status", name, pp, Vec::new()))?;
        exchange(&self.client, request, Some(form.encode(obj)), |u| form.decode(u)).await
    }
}

impl<V: verb::Delete> TypedClient<V> {
    /// Deletes the object: the object while finalizers hold it, else the server's Status.
    pub async fn delete(&self, name: &str, dp: &DeleteParams) -> kube::Result<Either<V::Object, Status>> {
        self.api.delete(name, dp).await
    }
}

impl<V: verb::DeleteCollection> TypedClient<V> {
    /// Deletes every object the list parameters select.
    pub async fn delete_collection(
        &self,
        dp: &DeleteParams,
        lp: &ListParams,
    ) -> kube::Result<Either<ObjectList<V::Object>, Status>> {
        self.api.delete_collection(dp, lp).await
    }
}

impl<V: verb::Get> TypedClient<V> {
    /// Reads one object by name.
    pub async fn get(&self, name: &str, gp: &GetParams) -> kube::Result<V::Object> {
        let Some(form) = self.protobuf else {
            return self.api.get_with(name, gp).await;
        };
        let request = self.build(|r| r.get(name, gp))?;
        exchange(&self.client, request, None, |u| form.decode(u)).await
    }
}

impl<V: verb::List> TypedClient<V> {
    /// Lists the objects the parameters select (labels, fields, a page).
    pub async fn list(&self, lp: &ListParams) -> kube::Result<ObjectList<V::Object>> {
        let Some(form) = self.protobuf else {
            return self.api.list(lp).await;
        };
        let request = self.build(|r| r.list(lp))?;
        exchange(&self.client, request, None, |u| form.decode_list(u)).await
    }
}

impl<V: verb::Watch> TypedClient<V> {
    /// Watches for changes after `resource_version` (`"0"`: from any point the server has).
    pub async fn watch(
        &self,
        wp: &WatchParams,
        resource_version: &str,
    ) -> kube::Result<BoxStream<'static, kube::Result<WatchEvent<V::Object>>>> {
        Ok(futures::StreamExt::boxed(self.api.watch(wp, resource_version).await?))
    }
}

impl<V: verb::Patch> TypedClient<V> {
    /// Patches the object: JSON, merge, strategic merge or apply, as `patch` says.
    pub async fn patch(
        &self,
        name: &str,
        pp: &PatchParams,
        patch: &Patch<serde_json::Value>,
    ) -> kube::Result<V::Object> {
        self.api.patch(name, pp, patch).await
    }
}

impl<V: verb::Apply> TypedClient<V> {
    /// Applies the configuration (server-side apply): `pp` names the field manager, and `force`
    /// takes over fields another manager owns instead of answering 409 Conflict.
    pub async fn apply(&self, config: &<V as verb::Apply>::Configuration, pp: &PatchParams) -> kube::Result<V::Object> {
        let name = super::apply_name(config.name())?;
        self.api.patch(name, pp, &Patch::Apply(config)).await
    }
}

impl<V: verb::ApplyStatus> TypedClient<V> {
    /// Applies the configuration's status (server-side apply on `.../status`).
    pub async fn apply_status(
        &self,
        config: &<V as verb::ApplyStatus>::Configuration,
        pp: &PatchParams,
    ) -> kube::Result<V::Object> {
        let name = super::apply_name(config.name())?;
        self.api.patch_status(name, pp, &Patch::Apply(config)).await
    }
}
