//! Kubernetes' CEL environment and libraries (k8s.io/apiserver's `pkg/cel` and
//! `pkg/cel/library`), on the `cel` crate: the standard library with the extensions Kubernetes
//! enables, and Kubernetes' own lists, regex, sets, format, network (`ip`, `cidr`, `url`) and
//! quantity libraries, registered once on a root context that every evaluation descends from.
//! What compiles rules against a schema is the custom resource server's.

pub mod format;
mod library;
mod network;
mod quantity;

use std::sync::{Arc, LazyLock};

use cel::objects::Opaque;
use cel::{Context, Env, ExecutionError, FunctionContext, Value};

/// The CEL environment of every rule: the standard library and the extensions Kubernetes
/// enables that the crate has (strings, lists, math).
pub static ENV: LazyLock<Arc<Env>> = LazyLock::new(|| {
    let mut env = Env::stdlib();
    // The crate's own extensions: a failure to add one would be a bug in it, and leaves the
    // standard library.
    let _ = env.add_extension(cel::extensions::strings);
    let _ = env.add_extension(cel::extensions::lists);
    let _ = env.add_extension(cel::extensions::math);
    Arc::new(env)
});

/// The context every evaluation's scope is a child of, holding the library functions.
pub static LIBRARY: LazyLock<Context<'static, 'static>> = LazyLock::new(|| {
    let mut context = Context::with_env(ENV.clone());
    library::lists(&mut context);
    library::regex(&mut context);
    library::sets(&mut context);
    library::formats(&mut context);
    network::register(&mut context);
    quantity::register(&mut context);
    context
});

/// Adds `f` as `name`. A name the environment already declares stays the environment's (the
/// crate refuses the addition), which a test of every name below guards against.
fn add<T: 'static, F>(context: &mut Context<'static, 'static>, name: &str, f: F)
where
    F: cel::extractors::IntoFunction<T> + 'static + Send + Sync,
{
    let _ = context.add_function(name, f);
}

/// `value` as the library type `T`, when it is one.
fn opaque<T: Opaque>(value: &Value) -> Option<&T> {
    match value {
        Value::Opaque(o) => o.downcast_ref::<T>(),
        _ => None,
    }
}

/// An error of function `ftx` with Kubernetes' message, which the rule's error shows as is.
fn fail(ftx: &FunctionContext, message: impl ToString) -> ExecutionError {
    ftx.error(message)
}
