//! The custom `+genclient:method=` methods of a typed client: each one's parameters and the
//! request it sends, decided here from its verb and subresource so the template only writes
//! them out (client-go's expansion of `+genclient:method=` into a typed-client method).

use serde::Serialize;

use super::apply_configuration_path;
use crate::generator::Context;
use crate::model::kind::{Method, Verb};

/// One custom method as the template writes it: in the trait
/// `fn <fn_name>(&self, <params>) -> impl Future<Output = kube::Result<<result>>> + Send`, in the
/// impl `async fn <fn_name>(&self, <params>) -> kube::Result<<result>> { <body> }`.
#[derive(Serialize)]
pub struct MethodCx {
    /// The tag's name (`GetScale`), for the doc line.
    name: String,
    fn_name: String,
    /// What the method does, for the doc line: `get of the scale subresource`.
    summary: String,
    /// The parameters after `&self`.
    params: String,
    /// The answer's type.
    result: String,
    /// The body of the `async fn`.
    body: String,
}

/// The method's context: its signature from its verb (and subresource), its body the request.
pub fn method_cx(cx: &Context<'_>, m: &Method) -> MethodCx {
    let kube = &cx.paths.kube;
    let rt = &cx.paths.rt;
    let sub = m.subresource.as_deref();
    let named = |id: &crate::model::TypeId| cx.apis_path(&id.package, &id.name);
    let input = || match &m.apply_configuration {
        Some(config) if m.verb.is_apply() => apply_configuration_path(config),
        _ => cx.rust_type(&m.input, &named),
    };
    let send = |call: String| format!("self.send(|r| r.{call}).await");
    let (params, body) = match (m.verb, sub) {
        (Verb::Get, Some(s)) => (
            format!("name: &str, _gp: &{kube}::api::GetParams"),
            send(format!("get_subresource({s:?}, name)")),
        ),
        (Verb::Get, None) => (
            format!("name: &str, gp: &{kube}::api::GetParams"),
            send("get(name, gp)".into()),
        ),
        (Verb::List, _) => (format!("lp: &{kube}::api::ListParams"), send("list(lp)".into())),
        (Verb::Patch, _) => (
            format!("name: &str, pp: &{kube}::api::PatchParams, patch: &{kube}::api::Patch<::serde_json::Value>"),
            send(match sub {
                Some(s) => format!("patch_subresource({s:?}, name, pp, patch)"),
                None => "patch(name, pp, patch)".into(),
            }),
        ),
        (Verb::Apply | Verb::ApplyStatus, _) => (
            format!("name: &str, config: &{}, pp: &{kube}::api::PatchParams", input()),
            format!(
                "let patch = {kube}::api::Patch::Apply(config); {}",
                send(match sub {
                    Some(s) => format!("patch_subresource({s:?}, name, pp, &patch)"),
                    None => "patch(name, pp, &patch)".into(),
                })
            ),
        ),
        (verb, Some(s)) => (
            format!("name: &str, input: &{}, pp: &{kube}::api::PostParams", input()),
            format!(
                "let body = {rt}::client::body(input)?; {}",
                send(if verb == Verb::Create {
                    format!("create_subresource({s:?}, name, pp, body)")
                } else {
                    format!("replace_subresource({s:?}, name, pp, body)")
                })
            ),
        ),
        (verb, None) => (
            format!("input: &{}, pp: &{kube}::api::PostParams", input()),
            if verb == Verb::Create {
                format!(
                    "let body = {rt}::client::body(input)?; {}",
                    send("create(pp, body)".into())
                )
            } else {
                format!(
                    "let name = {rt}::client::name(input)?; let body = {rt}::client::body(input)?; {}",
                    send("replace(name, pp, body)".into())
                )
            },
        ),
    };
    MethodCx {
        name: m.name.clone(),
        fn_name: m.fn_name.clone(),
        summary: match sub {
            Some(s) => format!("{} of the `{s}` subresource", m.verb.as_str()),
            None => m.verb.as_str().to_string(),
        },
        params,
        result: cx.rust_type(&m.result, &named),
        body,
    }
}
