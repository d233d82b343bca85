//! Resolves a syn type, as written in one file, to a `TypeRef`: `use` imports (including aliases
//! and globs), `crate::`/`super::`/`self::` paths, std containers and the external types of
//! k8s-openapi, kube and serde_json.

use std::collections::{BTreeMap, BTreeSet};

use super::{External, Primitive, TypeId, TypeRef};

/// What resolution needs to know about the whole crate: which module belongs to which package and
/// which type names each package defines.
#[derive(Default)]
pub struct Index {
    /// Module path (`crate::apps::v1::types`) -> package path (`crate::apps::v1`).
    pub module_package: BTreeMap<String, String>,
    /// Package path -> type names.
    pub package_types: BTreeMap<String, BTreeSet<String>>,
    /// Type aliases (`pub type Protocol = String;`) -> what they stand for, resolved in their module.
    pub aliases: BTreeMap<TypeId, TypeRef>,
}

/// The names in scope in one file.
pub struct Scope<'a> {
    index: &'a Index,
    /// The file's module path segments, starting with `crate`.
    module: Vec<String>,
    /// The file's package.
    package: String,
    /// Imported name -> absolute path segments.
    uses: BTreeMap<String, Vec<String>>,
    /// Glob imports, as absolute module paths.
    globs: Vec<Vec<String>>,
}

/// Crates whose paths are absolute when they start a path.
const EXTERN_CRATES: &[&str] = &[
    "std",
    "core",
    "alloc",
    "k8s_openapi",
    "kube",
    "kube_core",
    "serde_json",
    "serde",
    "runtime",
    RUNTIME_CRATE,
];

/// The runtime crate's name (kube-apimachinery): API sources may name it so, or `runtime` as the
/// tag language and the k8s.io/api translation spell it; the model knows it as `runtime`.
pub const RUNTIME_CRATE: &str = "kube_apimachinery";

impl<'a> Scope<'a> {
    /// The scope of a file with module path `module` (segments below the crate root) in `package`.
    pub fn new(index: &'a Index, module: &[String], package: &str, items: &[syn::Item]) -> Self {
        let mut module_abs = vec!["crate".to_string()];
        module_abs.extend(module.iter().cloned());
        let mut scope = Scope {
            index,
            module: module_abs,
            package: package.to_string(),
            uses: BTreeMap::new(),
            globs: Vec::new(),
        };
        for item in items {
            if let syn::Item::Use(u) = item {
                let prefix = if u.leading_colon.is_some() {
                    vec!["::".to_string()]
                } else {
                    Vec::new()
                };
                scope.collect_use(&u.tree, prefix);
            }
        }
        scope
    }

    fn collect_use(&mut self, tree: &syn::UseTree, mut prefix: Vec<String>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.collect_use(&p.tree, prefix);
            }
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                if name == "self" {
                    if let Some(last) = prefix.last().cloned() {
                        let abs = self.absolutize(&prefix);
                        self.uses.insert(last, abs);
                    }
                } else {
                    prefix.push(name.clone());
                    let abs = self.absolutize(&prefix);
                    self.uses.insert(name, abs);
                }
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                let abs = self.absolutize(&prefix);
                self.uses.insert(r.rename.to_string(), abs);
            }
            syn::UseTree::Glob(_) => {
                let abs = self.absolutize(&prefix);
                self.globs.push(abs);
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.collect_use(t, prefix.clone());
                }
            }
        }
    }

    /// Turns a path as written into an absolute one (`crate::...` or `<extern crate>::...`), the
    /// runtime crate named `runtime` whichever way the source names it.
    fn absolutize(&self, segs: &[String]) -> Vec<String> {
        let mut abs = self.absolutize_as_written(segs);
        if abs.first().is_some_and(|f| f == RUNTIME_CRATE) {
            abs[0] = "runtime".into();
        }
        abs
    }

    fn absolutize_as_written(&self, segs: &[String]) -> Vec<String> {
        let Some(first) = segs.first() else { return Vec::new() };
        match first.as_str() {
            "::" => segs[1..].to_vec(),
            "crate" => segs.to_vec(),
            "self" => [self.module.clone(), segs[1..].to_vec()].concat(),
            "super" => {
                let mut base = self.module.clone();
                let mut rest = segs;
                while rest.first().is_some_and(|s| s == "super") {
                    if base.len() > 1 {
                        base.pop();
                    }
                    rest = &rest[1..];
                }
                [base, rest.to_vec()].concat()
            }
            // An import shadows the extern prelude, as in rustc: `use crate::core;` then `core::X`.
            f => match self.uses.get(f) {
                Some(abs) => [abs.clone(), segs[1..].to_vec()].concat(),
                None if EXTERN_CRATES.contains(&f) => segs.to_vec(),
                // Uniform paths: a bare first segment names a child module of this module.
                None => [self.module.clone(), segs.to_vec()].concat(),
            },
        }
    }

    /// Resolves a type; `Err` carries the path that could not be resolved.
    pub fn resolve(&self, ty: &syn::Type) -> Result<TypeRef, String> {
        match ty {
            syn::Type::Paren(p) => self.resolve(&p.elem),
            syn::Type::Group(g) => self.resolve(&g.elem),
            syn::Type::Path(p) if p.qself.is_none() => match self.resolve_path(&p.path)? {
                // Name the type as written (`std::rc::Rc<String>`), not the segment that decided.
                TypeRef::Unsupported(_, why) => Ok(TypeRef::Unsupported(display_type(ty), why)),
                other => Ok(other),
            },
            syn::Type::Reference(_) => Ok(unsupported(ty, "a reference borrows data; API types own their data")),
            syn::Type::Ptr(_) => Ok(unsupported(ty, "a raw pointer cannot be deep-copied")),
            syn::Type::TraitObject(_) | syn::Type::ImplTrait(_) => Ok(unsupported(
                ty,
                "a trait object has no known shape; use a concrete type or serde_json::Value",
            )),
            syn::Type::Tuple(_) | syn::Type::Array(_) | syn::Type::Slice(_) => Ok(unsupported(
                ty,
                "tuples and arrays have no Kubernetes JSON form; use a struct or Vec",
            )),
            _ => Ok(unsupported(ty, "this kind of type cannot be part of an API object")),
        }
    }

    fn resolve_path(&self, path: &syn::Path) -> Result<TypeRef, String> {
        let written: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let args = generic_args(path);
        let resolve_arg = |i: usize| -> Result<Box<TypeRef>, String> {
            let t = args.get(i).ok_or_else(|| display(path))?;
            Ok(Box::new(self.resolve(t)?))
        };
        // Single names: primitives and the std prelude first, then this package, then imports.
        let abs = if written.len() == 1 && path.leading_colon.is_none() {
            let name = written[0].as_str();
            if let Some(p) = Primitive::parse(name) {
                return Ok(TypeRef::Primitive(p));
            }
            match name {
                "String" => return Ok(TypeRef::String),
                "Option" => return Ok(TypeRef::Option(resolve_arg(0)?)),
                "Vec" => return Ok(TypeRef::Vec(resolve_arg(0)?)),
                "Box" => return Ok(TypeRef::Box(resolve_arg(0)?)),
                _ => {}
            }
            if self
                .index
                .package_types
                .get(&self.package)
                .is_some_and(|t| t.contains(name))
            {
                return Ok(TypeRef::Named(TypeId {
                    package: self.package.clone(),
                    name: name.to_string(),
                }));
            }
            let local = TypeId {
                package: self.package.clone(),
                name: name.to_string(),
            };
            if let Some(target) = self.index.aliases.get(&local) {
                return Ok(target.clone());
            }
            match self.uses.get(name) {
                Some(abs) => abs.clone(),
                None => return self.find_in_globs(name).ok_or_else(|| display(path)),
            }
        } else {
            let mut segs = written.clone();
            if path.leading_colon.is_some() {
                segs.insert(0, "::".into());
            }
            self.absolutize(&segs)
        };
        self.resolve_absolute(&abs, &args).ok_or_else(|| display(path))
    }

    fn find_in_globs(&self, name: &str) -> Option<TypeRef> {
        self.globs
            .iter()
            .find_map(|g| self.crate_type(&[g.clone(), vec![name.to_string()]].concat()))
    }

    /// A type of this crate by absolute path, looked up through the module -> package index; an
    /// alias stands for its target.
    fn crate_type(&self, abs: &[String]) -> Option<TypeRef> {
        let (name, module) = abs.split_last()?;
        let package = self.index.module_package.get(&module.join("::"))?;
        let id = TypeId {
            package: package.clone(),
            name: name.clone(),
        };
        if let Some(target) = self.index.aliases.get(&id) {
            return Some(target.clone());
        }
        self.index
            .package_types
            .get(package)?
            .contains(name)
            .then_some(TypeRef::Named(id))
    }

    /// The alias a field's type names, under `Option`s and `Box`es: `Option<Protocol>` names
    /// `Protocol` when that is an alias of this crate.
    pub fn alias_named(&self, ty: &syn::Type) -> Option<TypeId> {
        let syn::Type::Path(p) = ty else { return None };
        let last = p.path.segments.last()?;
        if p.path.segments.len() == 1 && matches!(last.ident.to_string().as_str(), "Option" | "Box") {
            let inner = generic_args(&p.path).into_iter().next()?;
            return self.alias_named(inner);
        }
        let written: Vec<String> = p.path.segments.iter().map(|s| s.ident.to_string()).collect();
        let abs = if written.len() == 1 && p.path.leading_colon.is_none() {
            let local = TypeId {
                package: self.package.clone(),
                name: written[0].clone(),
            };
            if self.index.aliases.contains_key(&local) {
                return Some(local);
            }
            self.uses.get(&written[0]).cloned()?
        } else {
            self.absolutize(&written)
        };
        let (name, module) = abs.split_last()?;
        let id = TypeId {
            package: self.index.module_package.get(&module.join("::"))?.clone(),
            name: name.clone(),
        };
        self.index.aliases.contains_key(&id).then_some(id)
    }

    fn resolve_absolute(&self, abs: &[String], args: &[&syn::Type]) -> Option<TypeRef> {
        let first = abs.first()?.as_str();
        let last = abs.last()?.as_str();
        let arg = |i: usize| args.get(i).and_then(|t| self.resolve(t).ok()).map(Box::new);
        match first {
            "crate" => self.crate_type(abs),
            "std" | "core" | "alloc" => match last {
                "String" => Some(TypeRef::String),
                "Option" => Some(TypeRef::Option(arg(0)?)),
                "Vec" => Some(TypeRef::Vec(arg(0)?)),
                "Box" => Some(TypeRef::Box(arg(0)?)),
                "BTreeMap" | "HashMap" => Some(TypeRef::Map {
                    ordered: last == "BTreeMap",
                    key: arg(0)?,
                    value: arg(1)?,
                }),
                "Rc" | "Arc" => Some(TypeRef::Unsupported(
                    last.into(),
                    "it shares data, so a copy would alias the original".into(),
                )),
                "Cell" | "RefCell" | "Mutex" | "RwLock" => Some(TypeRef::Unsupported(
                    last.into(),
                    "interior mutability has no place in an API object".into(),
                )),
                _ => None,
            },
            "k8s_openapi" => Some(TypeRef::External(k8s_openapi_kind(abs), abs.join("::"))),
            "kube" | "kube_core" if last == "TypeMeta" => {
                Some(TypeRef::External(External::TypeMeta, "kube_core::TypeMeta".into()))
            }
            "serde_json" if last == "Value" => Some(TypeRef::External(External::Json, "serde_json::Value".into())),
            // The runtime crate's wire forms of the meta types k8s-openapi lacks.
            "runtime" if abs.len() == 4 && abs[1] == "meta" && abs[2] == "v1" => {
                Some(TypeRef::External(External::Other, abs.join("::")))
            }
            _ => None,
        }
    }
}

/// Which well-known k8s-openapi type a path names.
fn k8s_openapi_kind(abs: &[String]) -> External {
    let path = abs.join("::");
    let meta = "k8s_openapi::apimachinery::pkg::apis::meta::v1::";
    match path.as_str() {
        p if p == format!("{meta}ObjectMeta") => External::ObjectMeta,
        p if p == format!("{meta}ListMeta") => External::ListMeta,
        p if p == format!("{meta}Time") => External::Time,
        p if p == format!("{meta}MicroTime") => External::MicroTime,
        "k8s_openapi::apimachinery::pkg::util::intstr::IntOrString" => External::IntOrString,
        "k8s_openapi::apimachinery::pkg::api::resource::Quantity" => External::Quantity,
        "k8s_openapi::ByteString" => External::ByteString,
        _ => External::Other,
    }
}

fn generic_args(path: &syn::Path) -> Vec<&syn::Type> {
    let Some(last) = path.segments.last() else {
        return Vec::new();
    };
    match &last.arguments {
        syn::PathArguments::AngleBracketed(a) => a
            .args
            .iter()
            .filter_map(|g| match g {
                syn::GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn unsupported(ty: &syn::Type, why: &str) -> TypeRef {
    TypeRef::Unsupported(display_type(ty), why.to_string())
}

/// A type as written, compact (`Option<Vec<String>>`).
pub fn display_type(ty: &syn::Type) -> String {
    quote::ToTokens::to_token_stream(ty)
        .to_string()
        .replace(" :: ", "::")
        .replace(" < ", "<")
        .replace(" >", ">")
        .replace("< ", "<")
        .replace(" ,", ",")
        .replace("& ", "&")
}

fn display(path: &syn::Path) -> String {
    quote::ToTokens::to_token_stream(path)
        .to_string()
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" < ", "<")
        .replace(" >", ">")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> Index {
        let mut module_package = BTreeMap::new();
        module_package.insert("crate::core::v1".into(), "crate::core::v1".into());
        module_package.insert("crate::core::v1::types".into(), "crate::core::v1".into());
        module_package.insert("crate::apps::v1".into(), "crate::apps::v1".into());
        module_package.insert("crate::apps::v1::types".into(), "crate::apps::v1".into());
        let mut package_types = BTreeMap::new();
        package_types.insert(
            "crate::core::v1".into(),
            BTreeSet::from(["PodTemplateSpec".to_string()]),
        );
        package_types.insert("crate::apps::v1".into(), BTreeSet::from(["Deployment".to_string()]));
        Index {
            module_package,
            package_types,
            aliases: BTreeMap::new(),
        }
    }

    fn resolve(uses: &str, ty: &str) -> Result<TypeRef, String> {
        let index = index();
        let file: syn::File = syn::parse_str(uses).unwrap();
        let module = vec!["apps".to_string(), "v1".to_string(), "types".to_string()];
        let scope = Scope::new(&index, &module, "crate::apps::v1", &file.items);
        scope.resolve(&syn::parse_str(ty).unwrap())
    }

    fn named(package: &str, name: &str) -> TypeRef {
        TypeRef::Named(TypeId {
            package: package.into(),
            name: name.into(),
        })
    }

    #[test]
    fn resolves_local_crate_and_super_paths() {
        assert_eq!(resolve("", "Deployment"), Ok(named("crate::apps::v1", "Deployment")));
        assert_eq!(
            resolve("", "crate::core::v1::PodTemplateSpec"),
            Ok(named("crate::core::v1", "PodTemplateSpec"))
        );
        assert_eq!(
            resolve("", "super::super::super::core::v1::types::PodTemplateSpec"),
            Ok(named("crate::core::v1", "PodTemplateSpec"))
        );
        assert_eq!(
            resolve("use crate::core::v1 as corev1;", "corev1::PodTemplateSpec"),
            Ok(named("crate::core::v1", "PodTemplateSpec"))
        );
        assert_eq!(
            resolve("use crate::core::v1::*;", "PodTemplateSpec"),
            Ok(named("crate::core::v1", "PodTemplateSpec"))
        );
        assert_eq!(
            resolve("use crate::core;", "core::v1::PodTemplateSpec"),
            Ok(named("crate::core::v1", "PodTemplateSpec")),
            "an import shadows the core crate"
        );
    }

    #[test]
    fn resolves_std_and_external_types() {
        let r = resolve(
            "use std::collections::BTreeMap; use k8s_openapi::apimachinery::pkg::api::resource::Quantity;",
            "Option<BTreeMap<String, Quantity>>",
        );
        let TypeRef::Option(inner) = r.unwrap() else { panic!() };
        assert!(
            matches!(*inner, TypeRef::Map { ordered: true, ref value, .. } if value.is_external(External::Quantity))
        );
        assert!(
            resolve("use kube_core::TypeMeta;", "Option<TypeMeta>")
                .unwrap()
                .strip_option()
                .is_external(External::TypeMeta)
        );
        assert!(
            resolve("", "k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta")
                .unwrap()
                .is_external(External::ObjectMeta)
        );
        assert!(matches!(
            resolve("", "std::rc::Rc<String>"),
            Ok(TypeRef::Unsupported(..))
        ));
        assert!(matches!(resolve("", "&'static str"), Ok(TypeRef::Unsupported(..))));
    }

    #[test]
    fn unresolvable_paths_are_errors() {
        assert_eq!(resolve("", "Missing"), Err("Missing".into()));
        assert_eq!(resolve("", "chrono::DateTime"), Err("chrono::DateTime".into()));
        assert_eq!(
            resolve("", "crate::core::v1::Nope"),
            Err("crate::core::v1::Nope".into())
        );
    }
}
