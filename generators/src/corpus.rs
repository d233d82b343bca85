//! The changes the shared k8s.io/api corpus (`../shared/corpora/k8s-api`, data beside the checkout
//! that is never edited) needs before it generates and compiles, applied to copies by
//! `cargo xtask corpus` and in memory by the corpus test:
//! - its two admission packages import `GroupVersionKind` and `GroupVersionResource` from
//!   k8s-openapi, which does not have them (Kubernetes publishes no definition of either); the
//!   runtime crate has their wire form;
//! - its `mod.rs` files predate protobuf-gen, so each `+k8s:protobuf-gen=package` package gets
//!   the declaration of its `zz_generated_protobuf.rs`.

const FROM: &str =
    "use k8s_openapi::apimachinery::pkg::apis::meta::v1::{GroupVersionKind, GroupVersionResource, Status};";
const TO: &str = "use k8s_openapi::apimachinery::pkg::apis::meta::v1::Status;\nuse runtime::meta::v1::{GroupVersionKind, GroupVersionResource};";

/// One corpus file, `rel` below its `src/` (`apps/v1/mod.rs`), as the generators should read it.
pub fn adapt(rel: &str, text: &str) -> String {
    let text = text.replace(FROM, TO);
    let rel = rel.replace('\\', "/");
    let Some(dir) = rel.strip_suffix("/mod.rs") else {
        return text;
    };
    if !text.lines().any(|l| l.trim() == "//! +k8s:protobuf-gen=package") || text.contains("mod zz_generated_protobuf;")
    {
        return text;
    }
    let up = "../".repeat(dir.split('/').count() + 1);
    format!(
        "{text}#[rustfmt::skip]\n#[path = \"{up}generated/apis/{dir}/zz_generated_protobuf.rs\"]\nmod zz_generated_protobuf;\n"
    )
}
