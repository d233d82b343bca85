//! The internal version of the widgets.example.dev group: an example of custom resources served
//! by CustomResourceDefinitions (`generated/crds/`), in two external versions that convert through
//! this hub. v1 is the storage version; v1alpha1 is deprecated in its favour and lacks v1's
//! `paused`, which it carries in an annotation so that a round trip keeps it. The CRDs name a
//! conversion webhook, which a controller serves with `kube_apimachinery::codec::Codec::review` over the
//! generated conversions.
//! +k8s:deepcopy-gen=package
//! +groupName=widgets.example.dev

mod types;
pub use types::*;

pub mod install;
pub mod v1;
pub mod v1alpha1;

#[rustfmt::skip]
#[path = "../../../generated/apis/widgets/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../generated/apis/widgets/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
