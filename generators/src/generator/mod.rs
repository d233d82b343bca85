//! The generator interface and the registry of generators. Each generator reads the model only
//! and returns the tokens of one in-package file per package it applies to.

pub mod deepcopy;
pub mod register;

use proc_macro2::TokenStream;

use crate::diag::Diagnostics;
use crate::model::{Package, Universe};

/// What every generator sees besides the package at hand.
pub struct Context<'a> {
    /// The whole model, for cross-package lookups.
    pub universe: &'a Universe,
}

/// A code generator over the model.
///
/// Call order: `applies` once per package, in Universe order (module path order); for each package
/// it applies to, `generate_package` once. A generator that applies to a package but has nothing
/// to write reports that as an error, because a tag that does nothing is a mistake.
pub trait Generator {
    /// Short name: `deepcopy` writes `zz_generated_deepcopy.rs`.
    fn name(&self) -> &'static str;

    /// The tool name written in the file header (`deepcopy-gen`), after code-generator's binaries.
    fn tool(&self) -> &'static str;

    /// Whether the package's tags ask for this generator.
    fn applies(&self, pkg: &Package) -> bool;

    /// The tags that make `applies` true, for messages.
    fn activation(&self) -> &'static str;

    /// The file's items for one package, or `None` with errors pushed into `diags`.
    fn generate_package(&self, cx: &Context<'_>, pkg: &Package, diags: &mut Diagnostics) -> Option<TokenStream>;
}

/// Every generator, in the order their summaries are printed.
pub fn all() -> Vec<Box<dyn Generator>> {
    vec![Box::new(deepcopy::Deepcopy), Box::new(register::Register)]
}

/// Parses a model path (`crate::apps::v1::types`) joined with a name into a path for generated
/// code. Model paths are built from identifiers, so this cannot fail on a built model.
pub fn type_path(module: &str, name: &str) -> syn::Path {
    syn::parse_str(&format!("{module}::{name}"))
        .unwrap_or_else(|e| panic!("model path `{module}::{name}` is not a path: {e}"))
}
