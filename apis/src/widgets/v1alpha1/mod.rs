//! Version v1alpha1 of the widgets.example.dev group.
//! +k8s:deepcopy-gen=package
//! +k8s:openapi-gen=true
//! +groupName=widgets.example.dev
//! +k8s:conversion-gen=crate::widgets
//! +k8s:defaulter-gen=TypeMeta
//! +k8s:validation-gen=TypeMeta
//! +k8s:prerelease-lifecycle-gen=true
//! +k8s:crd-gen=true

mod conversion;
mod types;
pub use conversion::*;
pub use types::*;

#[rustfmt::skip]
#[path = "../../../../generated/apis/widgets/v1alpha1/zz_generated_deepcopy.rs"]
mod zz_generated_deepcopy;
#[rustfmt::skip]
#[path = "../../../../generated/apis/widgets/v1alpha1/zz_generated_register.rs"]
mod zz_generated_register;
pub use zz_generated_register::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/widgets/v1alpha1/zz_generated_defaults.rs"]
mod zz_generated_defaults;
pub use zz_generated_defaults::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/widgets/v1alpha1/zz_generated_prerelease_lifecycle.rs"]
mod zz_generated_prerelease_lifecycle;
#[rustfmt::skip]
#[path = "../../../../generated/apis/widgets/v1alpha1/zz_generated_conversion.rs"]
mod zz_generated_conversion;
pub use zz_generated_conversion::*;
#[rustfmt::skip]
#[path = "../../../../generated/apis/widgets/v1alpha1/zz_generated_validations.rs"]
mod zz_generated_validations;
pub use zz_generated_validations::*;
