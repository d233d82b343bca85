//! Support for `cargo bench -p kube-code-generator`: the model of an apis tree built once, then one
//! generator at a time on it, on the calling thread, so that each generator's own cost shows
//! apart from loading the sources and from the other generators.

use crate::diag::Diagnostics;
use crate::generator::{self, CrateGenerator, PackageGenerator};
use crate::model::Universe;
use crate::{Config, Failure, parse, pipeline};

/// A checked model and the flags of the run it came from.
pub struct Model {
    universe: Universe,
    config: Config,
    boilerplate: String,
}

impl Model {
    /// Loads and checks `inputs` (as [`crate::generate_from_sources`] takes them); any error of
    /// the sources or the model is the failure.
    pub fn build(config: Config, inputs: Vec<(String, String)>, boilerplate: &str) -> Result<Model, Failure> {
        let sources = parse::tree::Memory(inputs.into_iter().collect());
        let mut diags = Diagnostics::new();
        let (universe, texts) = pipeline::model_of(&config, &sources, boilerplate, &mut diags)?;
        diags.finish().map_err(|errors| Failure { errors, sources: texts })?;
        Ok(Model {
            universe,
            config,
            boilerplate: boilerplate.to_string(),
        })
    }

    /// Every generator's name, the in-package ones first, in the order a run reports them; a
    /// generator with both halves (protobuf: Rust messages per package, `.proto` documents over
    /// the universe) is named once, as a run's timings name it.
    pub fn generator_names() -> Vec<&'static str> {
        let mut names: Vec<&'static str> = generator::packages().into_iter().map(|g| g.name()).collect();
        for g in generator::crates() {
            if !names.contains(&g.name()) {
                names.push(g.name());
            }
        }
        names
    }

    /// Runs the generator `name`, both halves where it has two, over every package it applies
    /// to and over the universe, and returns the bytes it wrote; `None` for an unknown name. An
    /// error from the generator panics: a benchmark of a failing run would measure the wrong thing.
    pub fn run(&self, name: &str) -> Option<usize> {
        if !Self::generator_names().contains(&name) {
            return None;
        }
        let cx = pipeline::context(&self.universe, &self.config, &self.boilerplate);
        let output = self.config.output.as_path();
        let packages = generator::packages();
        let crates = generator::crates();
        let mut results = Vec::new();
        for g in packages.iter().filter(|g| g.name() == name) {
            let g: &dyn PackageGenerator = g.as_ref();
            let applies = self.universe.packages.values().filter(|p| g.applies(p));
            results.extend(applies.map(|p| generator::run_one(&cx, g, p, output)));
        }
        let root = self.config.documents.as_deref().unwrap_or(output);
        for g in crates.iter().filter(|g| g.name() == name) {
            let g: &dyn CrateGenerator = g.as_ref();
            results.push(generator::run_crate(&cx, g, root));
        }
        proc_macro2::extra::invalidate_current_thread_spans();
        let mut bytes = 0;
        for r in results {
            let files = r
                .into_files()
                .unwrap_or_else(|e| panic!("generator `{name}` failed on a checked model: {e:?}"));
            bytes += files.iter().map(|(_, f)| f.contents.len()).sum::<usize>();
        }
        Some(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::Model;

    /// This repository's apis tree: every generator runs alone and writes what a whole run writes.
    #[test]
    fn each_generator_alone_writes_what_the_run_writes() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../apis/src");
        let files = crate::read_sources(&dir).unwrap();
        let config = || {
            crate::Config::new("apis/src")
                .output("generated/apis")
                .documents("generated/openapi")
                .crate_name("generated")
        };
        let plan = crate::generate_from_sources(&config(), files.clone(), "// Header.\n").unwrap();
        let model = Model::build(config(), files, "// Header.\n").unwrap_or_else(|f| panic!("{}", f.render()));
        for name in Model::generator_names() {
            let expected: usize = plan
                .files
                .values()
                .filter(|f| f.generator == name)
                .map(|f| f.contents.len())
                .sum();
            assert!(expected > 0, "{name} writes nothing on the apis tree");
            assert_eq!(model.run(name), Some(expected), "{name}");
        }
        assert_eq!(model.run("no-such-generator"), None);
    }
}
