//! Tera templates for the outputs that are one shape per kind (clientset, apply configurations,
//! listers, informers): embedded at build time so the binary runs anywhere, rendered from a
//! serialized context in which a missing variable is an error, then parsed with syn and
//! formatted like every output.

use std::sync::OnceLock;

use serde::Serialize;
use tera::Tera;

/// Every template, by its path below `templates/`. They are compiled into the generators, so a
/// run needs no checkout beside the binary.
const TEMPLATES: &[(&str, &str)] = &[
    (
        "applyconfigurations/mod.rs.tera",
        include_str!("../../templates/applyconfigurations/mod.rs.tera"),
    ),
    (
        "applyconfigurations/package.rs.tera",
        include_str!("../../templates/applyconfigurations/package.rs.tera"),
    ),
    (
        "clientset/clientset.rs.tera",
        include_str!("../../templates/clientset/clientset.rs.tera"),
    ),
    (
        "clientset/fake.rs.tera",
        include_str!("../../templates/clientset/fake.rs.tera"),
    ),
    (
        "clientset/group.rs.tera",
        include_str!("../../templates/clientset/group.rs.tera"),
    ),
    (
        "informers/factory.rs.tera",
        include_str!("../../templates/informers/factory.rs.tera"),
    ),
    (
        "informers/group.rs.tera",
        include_str!("../../templates/informers/group.rs.tera"),
    ),
    (
        "informers/informer.rs.tera",
        include_str!("../../templates/informers/informer.rs.tera"),
    ),
    (
        "listers/group.rs.tera",
        include_str!("../../templates/listers/group.rs.tera"),
    ),
    (
        "listers/lister.rs.tera",
        include_str!("../../templates/listers/lister.rs.tera"),
    ),
    (
        "listers/listers.rs.tera",
        include_str!("../../templates/listers/listers.rs.tera"),
    ),
];

/// The engine with every template parsed once; a template that does not parse is reported by
/// the first render (and by this module's tests, so it never ships).
fn engine() -> &'static Result<Tera, String> {
    static ENGINE: OnceLock<Result<Tera, String>> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let mut tera = Tera::default();
        // The output is Rust: nothing may be HTML-escaped.
        tera.autoescape_on(Vec::new());
        tera.add_raw_templates(TEMPLATES.iter().copied())
            .map_err(|e| chain(&e))?;
        Ok(tera)
    })
}

/// Renders `template` with `context`, and `paths` as the variable `paths`, into formatted Rust
/// with the generated-file header.
///
/// Errors name the template: a variable the context lacks (tera's strict lookup), or Rust that
/// does not parse, with the line and column of the rendered text and the lines around it.
pub fn render(
    tool: &str,
    boilerplate: &str,
    template: &str,
    context: &impl Serialize,
    paths: &impl Serialize,
) -> Result<String, String> {
    let text = render_text(template, context, paths)?;
    let file = syn::parse_file(&text).map_err(|e| invalid_rust(template, &text, &e))?;
    Ok(format!(
        "{}{}",
        super::format::header(tool, boilerplate),
        prettyplease::unparse(&file)
    ))
}

/// The template's text output, unparsed.
fn render_text(template: &str, context: &impl Serialize, paths: &impl Serialize) -> Result<String, String> {
    let tera = engine()
        .as_ref()
        .map_err(|e| format!("the templates do not parse: {e}"))?;
    let mut context = tera::Context::from_serialize(context)
        .map_err(|e| format!("template `{template}`: the context does not serialize: {}", chain(&e)))?;
    context.insert("paths", paths);
    tera.render(template, &context)
        .map_err(|e| format!("template `templates/{template}` failed: {}", chain(&e)))
}

/// A tera error with its causes: the top error only says "Failed to render".
fn chain(e: &tera::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// The message for rendered text that is not Rust: where, and the lines around it.
fn invalid_rust(template: &str, text: &str, e: &syn::Error) -> String {
    let at = e.span().start();
    let lines: Vec<&str> = text.lines().collect();
    let first = at.line.saturating_sub(3).max(1);
    let last = (at.line + 2).min(lines.len());
    let excerpt: String = (first..=last)
        .map(|n| format!("{n:>5} | {}\n", lines.get(n - 1).unwrap_or(&"")))
        .collect();
    format!(
        "template `templates/{template}` rendered invalid Rust at line {}, column {} of its output: {e}\n{excerpt}",
        at.line,
        at.column + 1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_parses() {
        if let Err(e) = engine() {
            panic!("{e}");
        }
    }

    #[test]
    fn a_missing_variable_is_an_error_naming_the_template() {
        let err = render_text(
            "clientset/clientset.rs.tera",
            &serde_json::json!({}),
            &serde_json::json!({}),
        )
        .unwrap_err();
        assert!(
            err.starts_with("template `templates/clientset/clientset.rs.tera` failed"),
            "{err}"
        );
        assert!(err.contains("not found in context"), "{err}");
    }

    #[test]
    fn invalid_rust_names_the_template_and_the_line() {
        let e = syn::parse_file("fn ok() {}\nfn broken( {}\n").unwrap_err();
        let msg = invalid_rust("clientset/group.rs.tera", "fn ok() {}\nfn broken( {}\n", &e);
        assert!(
            msg.starts_with("template `templates/clientset/group.rs.tera` rendered invalid Rust at line 2"),
            "{msg}"
        );
        assert!(msg.contains("    2 | fn broken( {}"), "{msg}");
    }
}
