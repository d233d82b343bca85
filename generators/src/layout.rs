//! Where a run writes, checked before anything is planned: the output root, the documents
//! directory, the CRD directory beside it and the generated crate around them must stay clear of
//! the apis sources, the boilerplate and each other.

use std::path::{Component, Path, PathBuf};

use crate::Config;

/// A directory a run writes into, by its role in messages.
struct Target {
    role: &'static str,
    flag: &'static str,
    path: PathBuf,
}

/// Every way the run's directories overlap what they must not, as (path, message) pairs.
///
/// The output root and the documents directory may nest (the fixtures keep documents under the
/// output root): the generators remove only files that carry their marker, so neither sweeps the
/// other's files. They may not be the same directory, where one generator's file name could
/// replace another's.
pub(crate) fn check(config: &Config) -> Vec<(PathBuf, String)> {
    let apis = resolve(&config.apis);
    let boilerplate = resolve(&config.boilerplate);
    let mut targets = vec![Target {
        role: "the output root",
        flag: "--output",
        path: config.output.clone(),
    }];
    if let Some(docs) = &config.documents {
        targets.push(Target {
            role: "the documents directory",
            flag: "--documents",
            path: docs.clone(),
        });
        targets.push(Target {
            role: "the CRD directory (`crds/` beside the documents directory)",
            flag: "--documents",
            path: crate::generator::crd::crds_dir(docs),
        });
        targets.push(Target {
            role: "the protobuf IDL directory (`proto/` beside the documents directory)",
            flag: "--documents",
            path: crate::generator::protobuf::proto_dir(docs),
        });
        if config.crate_name.is_some() {
            // The crate's Cargo.toml and src/lib.rs go into the documents directory's parent.
            if let Some(dir) = docs.parent() {
                targets.push(Target {
                    role: "the generated crate (the documents directory's parent)",
                    flag: "--crate-name",
                    path: if dir.as_os_str().is_empty() {
                        ".".into()
                    } else {
                        dir.to_path_buf()
                    },
                });
            }
        }
    }
    let mut problems = Vec::new();
    for t in &targets {
        let at = resolve(&t.path);
        if apis.starts_with(&at) {
            let how = if apis == at { "is" } else { "contains" };
            problems.push((
                t.path.clone(),
                format!(
                    "{} `{}` {how} the apis sources `{}`: generated files would mix with hand-written ones; give `{}` a directory of its own",
                    t.role,
                    t.path.display(),
                    config.apis.display(),
                    t.flag
                ),
            ));
        } else if boilerplate.starts_with(&at) {
            problems.push((
                t.path.clone(),
                format!(
                    "{} `{}` contains the boilerplate `{}`; keep the boilerplate outside the generated directories",
                    t.role,
                    t.path.display(),
                    config.boilerplate.display()
                ),
            ));
        }
    }
    let (output, rest) = targets.split_first().expect("the output root is always a target");
    for t in rest.iter().filter(|t| t.flag != "--crate-name") {
        if resolve(&t.path) == resolve(&output.path) {
            problems.push((
                t.path.clone(),
                format!(
                    "{} `{}` is the output root too; give `--documents` and `--output` different directories",
                    t.role,
                    t.path.display()
                ),
            ));
        }
    }
    problems
}

/// `path` made absolute with `.` and `..` resolved and symbolic links followed as far as the
/// path exists, so two spellings of one directory compare equal.
fn resolve(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    // Follow links in the longest prefix that exists; the rest is not created yet.
    let mut existing = out.as_path();
    let mut tail = Vec::new();
    while !existing.exists() {
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                tail.push(name.to_os_string());
                existing = parent;
            }
            _ => return out,
        }
    }
    let mut real = existing.canonicalize().unwrap_or_else(|_| existing.to_path_buf());
    real.extend(tail.iter().rev());
    real
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(config: Config) -> Vec<String> {
        check(&config).into_iter().map(|(_, m)| m).collect()
    }

    #[test]
    fn documents_at_the_working_directory_contain_the_sources() {
        let p = problems(Config::new("apis/src").documents("."));
        assert!(
            p.iter()
                .any(|m| m.starts_with("the documents directory `.` contains the apis sources `apis/src`")),
            "{p:?}"
        );
    }

    #[test]
    fn a_generated_crate_around_the_sources_is_refused() {
        let p = problems(
            Config::new("apis/src")
                .documents("apis/openapi")
                .crate_name("generated"),
        );
        assert!(
            p.iter()
                .any(|m| m.starts_with("the generated crate (the documents directory's parent) `apis` contains")),
            "{p:?}"
        );
        assert!(problems(Config::new("apis/src").documents("apis/openapi")).is_empty());
    }

    #[test]
    fn output_equal_to_sources_boilerplate_dir_or_documents() {
        let p = problems(Config::new("apis/src").output("apis/./src/../src"));
        assert!(
            p[0].starts_with("the output root `apis/./src/../src` is the apis sources"),
            "{p:?}"
        );
        let p = problems(Config::new("apis/src").output("hack"));
        assert!(
            p[0].contains("contains the boilerplate `hack/boilerplate.rs.txt`"),
            "{p:?}"
        );
        let p = problems(Config::new("apis/src").output("gen/openapi").documents("gen/openapi"));
        assert!(p[0].contains("is the output root too"), "{p:?}");
        let p = problems(Config::new("apis/src").output("gen/crds").documents("gen/openapi"));
        assert!(p[0].starts_with("the CRD directory"), "{p:?}");
    }

    #[test]
    fn the_projects_own_layout_passes() {
        let config = Config::new("apis/src")
            .output("generated/apis")
            .documents("generated/openapi")
            .crate_name("generated");
        assert!(problems(config).is_empty());
        assert!(
            problems(
                Config::new("case/src")
                    .output("case/generated")
                    .documents("case/generated/openapi")
            )
            .is_empty()
        );
    }
}
