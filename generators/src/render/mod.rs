//! Rendering shared by every generator: tokens (or a tera template's text) -> syn::File ->
//! prettyplease, the file header, and the output plan that is written or verified.

pub mod format;
pub mod output;
pub mod template;
pub mod write;
