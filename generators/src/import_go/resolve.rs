//! Where a Go type lives in Rust: primitives, apimachinery's types (k8s-openapi's, or the
//! runtime's where k8s-openapi has none), the packages being imported, and other Go packages
//! through `--extern` mappings (k8s.io/api defaults to k8s-openapi's `api` modules). A name is
//! written through a `use` when its last segment is free in the file.

use std::collections::{BTreeMap, BTreeSet};

use super::go::{Expr, GoFile, TypeDecl, TypeExpr, TypeKind, tag_name};
use super::read::Package;
use crate::diag::Diagnostic;

/// apimachinery's meta/v1 package.
pub const META: &str = "k8s.io/apimachinery/pkg/apis/meta/v1";
/// k8s-openapi's module of meta/v1.
const K8S_META: &str = "k8s_openapi::apimachinery::pkg::apis::meta::v1";
/// The meta/v1 types k8s-openapi has.
const K8S_META_TYPES: &[&str] = &[
    "APIGroup",
    "APIGroupList",
    "APIResource",
    "APIResourceList",
    "APIVersions",
    "Condition",
    "DeleteOptions",
    "FieldSelectorRequirement",
    "FieldsV1",
    "GroupResource",
    "GroupVersionForDiscovery",
    "LabelSelector",
    "LabelSelectorRequirement",
    "ListMeta",
    "ManagedFieldsEntry",
    "MicroTime",
    "ObjectMeta",
    "OwnerReference",
    "Patch",
    "Preconditions",
    "ServerAddressByClientCIDR",
    "ShardInfo",
    "Status",
    "StatusCause",
    "StatusDetails",
    "Time",
    "WatchEvent",
];
/// The meta/v1 types k8s-openapi lacks, whose wire form the runtime crate has.
const RUNTIME_META_TYPES: &[&str] = &["GroupVersionKind", "GroupVersionResource"];
/// apimachinery's package of Quantity.
const RESOURCE: &str = "k8s.io/apimachinery/pkg/api/resource";
/// Types of other apimachinery packages, as k8s-openapi writes them.
const APIMACHINERY: &[(&str, &str, &str)] = &[
    (
        RESOURCE,
        "Quantity",
        "k8s_openapi::apimachinery::pkg::api::resource::Quantity",
    ),
    (
        "k8s.io/apimachinery/pkg/util/intstr",
        "IntOrString",
        "k8s_openapi::apimachinery::pkg::util::intstr::IntOrString",
    ),
    (
        "k8s.io/apimachinery/pkg/runtime",
        "RawExtension",
        "k8s_openapi::apimachinery::pkg::runtime::RawExtension",
    ),
    ("k8s.io/apimachinery/pkg/types", "UID", "String"),
    ("k8s.io/apimachinery/pkg/types", "NodeName", "String"),
    ("k8s.io/apimachinery/pkg/types", "NamespacedName", "String"),
    (META, "StatusReason", "String"),
];
/// kube-core's TypeMeta, the field a kind flattens.
pub const TYPE_META: &str = "kube_core::TypeMeta";

/// Go's predeclared types that API types use, in Rust.
fn primitive(name: &str) -> Option<&'static str> {
    Some(match name {
        "string" => "String",
        "bool" => "bool",
        "int8" => "i8",
        "int16" => "i16",
        "int32" | "rune" => "i32",
        "int64" | "int" => "i64",
        "uint8" | "byte" => "u8",
        "uint16" => "u16",
        "uint32" => "u32",
        "uint64" | "uint" => "u64",
        "float32" => "f32",
        "float64" => "f64",
        _ => return None,
    })
}

/// What a declared Go type becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A struct.
    Struct,
    /// A string type tagged `+enum` with constants: a Rust enum.
    Enum,
    /// Anything else: a Rust type alias.
    Alias,
}

/// The line width rustfmt formats this repository to (rustfmt.toml), which the importer's
/// `use` lines keep, so that `cargo fmt` leaves imported files as they are written.
pub const MAX_WIDTH: usize = 120;

/// Every package's declared types and constants, and where each package lives in Rust.
pub struct Index<'a> {
    /// Import path -> the package.
    pub packages: BTreeMap<&'a str, &'a Package>,
    /// Import path -> its Rust module path (`crate::apps::v1`).
    pub modules: BTreeMap<&'a str, String>,
    /// (import path, type name) -> its declaration and shape.
    pub types: BTreeMap<(&'a str, &'a str), (&'a TypeDecl, Shape)>,
    /// `--extern` mappings, longest Go prefix first.
    pub externs: Vec<(String, String)>,
    /// The runtime crate's path (`kube_apimachinery`).
    pub runtime: String,
}

impl<'a> Index<'a> {
    /// The index of `packages`, whose Rust modules are `rust_root::<dir as path>`.
    pub fn new(
        packages: &'a BTreeMap<String, Package>,
        rust_root: &str,
        externs: &[(String, String)],
        runtime: &str,
    ) -> Index<'a> {
        let mut index = Index {
            packages: BTreeMap::new(),
            modules: BTreeMap::new(),
            types: BTreeMap::new(),
            externs: externs.to_vec(),
            runtime: runtime.trim_start_matches("::").to_string(),
        };
        index.externs.sort_by_key(|(go, _)| std::cmp::Reverse(go.len()));
        for pkg in packages.values() {
            let ip = pkg.import_path.as_str();
            index.packages.insert(ip, pkg);
            let module = std::iter::once(rust_root.to_string())
                .chain(pkg.dir.split('/').filter(|s| !s.is_empty()).map(super::names::ident))
                .collect::<Vec<_>>()
                .join("::");
            index.modules.insert(ip, module);
            for t in pkg.files.iter().flat_map(|f| &f.types) {
                let shape = shape_of(pkg, t);
                index.types.insert((ip, t.name.as_str()), (t, shape));
            }
        }
        index
    }

    /// The string value of a constant expression in package `import_path` (file `file`):
    /// literals, `+`, constants of this package or of another package of the tree, conversions.
    pub fn eval(&self, import_path: &str, file: &GoFile, expr: &Expr, depth: u32) -> Option<String> {
        if depth > 32 {
            return None;
        }
        match expr {
            Expr::Str(s) => Some(s.clone()),
            Expr::Concat(a, b) => {
                Some(self.eval(import_path, file, a, depth + 1)? + &self.eval(import_path, file, b, depth + 1)?)
            }
            Expr::Call(_, args) if args.len() == 1 => self.eval(import_path, file, &args[0], depth + 1),
            Expr::Ident(name) => self.constant(import_path, name, depth),
            Expr::Selector(pkg, name) => {
                let target = file.imports.get(pkg)?;
                self.constant(target, name, depth)
            }
            _ => None,
        }
    }

    /// The string value of constant `name` of package `import_path`.
    pub fn constant(&self, import_path: &str, name: &str, depth: u32) -> Option<String> {
        let pkg = self.packages.get(import_path)?;
        pkg.files.iter().find_map(|f| {
            let c = f.consts.iter().find(|c| c.name == name)?;
            self.eval(import_path, f, c.value.as_ref()?, depth + 1)
        })
    }
}

impl Index<'_> {
    /// Whether a field of Go type `ty` (written in package `import_path`, whose file imports
    /// `imports`) holds Quantities outside a struct of its own: a `Quantity`, a pointer, list or
    /// map of them, or a named type that is one (`ResourceList`). Such a field reads them in
    /// canonical form (the runtime's `quantity::deserialize`).
    pub fn holds_quantity(
        &self,
        import_path: &str,
        imports: &BTreeMap<String, String>,
        ty: &TypeExpr,
        depth: u32,
    ) -> bool {
        if depth > 16 {
            return false;
        }
        match &ty.kind {
            TypeKind::Pointer(t) | TypeKind::Slice(t) | TypeKind::Map(_, t) => {
                self.holds_quantity(import_path, imports, t, depth + 1)
            }
            TypeKind::Named { package, name } => {
                let path = match package {
                    None => import_path,
                    Some(local) => match imports.get(local) {
                        Some(path) => path.as_str(),
                        None => return false,
                    },
                };
                if path == RESOURCE && name == "Quantity" {
                    return true;
                }
                let Some(pkg) = self.packages.get(path) else {
                    return false;
                };
                let decl = pkg
                    .files
                    .iter()
                    .find_map(|f| f.types.iter().find(|t| t.name == *name).map(|t| (f, t)));
                decl.is_some_and(|(file, t)| {
                    !matches!(t.ty.kind, TypeKind::Struct(..))
                        && self.holds_quantity(path, &file.imports, &t.ty, depth + 1)
                })
            }
            _ => false,
        }
    }
}

/// The type a constant has: declared, or given by a conversion `T("v")`.
pub fn const_type(c: &super::go::ConstDecl) -> Option<String> {
    if let Some(TypeExpr {
        kind: TypeKind::Named { package: None, name },
        ..
    }) = &c.ty
    {
        return Some(name.clone());
    }
    match &c.value {
        Some(Expr::Call(f, args)) if args.len() == 1 => match &**f {
            Expr::Ident(t) => Some(t.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn shape_of(pkg: &Package, t: &TypeDecl) -> Shape {
    if t.alias {
        return Shape::Alias;
    }
    if matches!(t.ty.kind, TypeKind::Struct(..)) {
        return Shape::Struct;
    }
    let is_string = matches!(&t.ty.kind, TypeKind::Named { package: None, name } if name == "string");
    let tagged = t
        .doc
        .iter()
        .chain(&t.second)
        .any(|l| tag_name(l) == "enum" && l.trim() == "+enum");
    let has_constants = pkg
        .files
        .iter()
        .flat_map(|f| &f.consts)
        .any(|c| const_type(c).as_deref() == Some(t.name.as_str()));
    if is_string && tagged && has_constants {
        Shape::Enum
    } else {
        Shape::Alias
    }
}

/// The `use` lines one Rust file needs, collected while its types are written.
#[derive(Default)]
pub struct Uses {
    /// Name -> full path.
    names: BTreeMap<String, String>,
    /// Names the file declares itself, which an import must not shadow.
    pub local: BTreeSet<String>,
    /// Whether `BTreeMap` is used.
    map: bool,
}

impl Uses {
    /// How the file writes `path`: by its last segment through a `use` when that name is free,
    /// else in full.
    pub fn name(&mut self, path: &str) -> String {
        if !path.contains("::") {
            return path.to_string();
        }
        let name = path.rsplit("::").next().unwrap_or(path);
        if self.local.contains(name) {
            return path.to_string();
        }
        match self.names.get(name) {
            Some(have) if have == path => name.to_string(),
            Some(_) => path.to_string(),
            None => {
                self.names.insert(name.to_string(), path.to_string());
                name.to_string()
            }
        }
    }

    /// The `use` lines: std, then other crates, then this crate, each block sorted, a long one
    /// wrapped at [`MAX_WIDTH`] as rustfmt wraps it.
    pub fn lines(&self) -> Vec<String> {
        let mut modules: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for path in self.names.values() {
            if let Some((module, name)) = path.rsplit_once("::") {
                modules.entry(module).or_default().push(name);
            }
        }
        let line = |module: &str, names: &[&str]| match names {
            [one] => format!("use {module}::{one};"),
            many => {
                let flat = format!("use {module}::{{{}}};", many.join(", "));
                if flat.len() <= MAX_WIDTH {
                    return flat;
                }
                // Wrapped as rustfmt wraps it, so that `cargo fmt` leaves the file alone: the
                // names packed four spaces in, each line within the width, a trailing comma.
                let mut lines = vec![format!("use {module}::{{")];
                let mut current = String::from("   ");
                for name in many {
                    if current.len() > 3 && current.len() + 1 + name.len() + 1 > MAX_WIDTH {
                        lines.push(std::mem::replace(&mut current, String::from("   ")));
                    }
                    current.push(' ');
                    current.push_str(name);
                    current.push(',');
                }
                lines.push(current);
                lines.push("};".into());
                lines.join("\n")
            }
        };
        let mut blocks: [Vec<String>; 3] = Default::default();
        if self.map {
            blocks[0].push("use std::collections::BTreeMap;".into());
        }
        for (module, names) in &mut modules {
            names.sort();
            let block = if module.starts_with("crate::") || *module == "crate" {
                2
            } else {
                1
            };
            blocks[block].push(line(module, names));
        }
        let mut out = Vec::new();
        for block in blocks.into_iter().filter(|b| !b.is_empty()) {
            if !out.is_empty() {
                out.push(String::new());
            }
            out.extend(block);
        }
        out
    }
}

/// One file's view while its types are written: its package, its Go imports, its `use` lines.
pub struct FileCx<'i, 'a> {
    /// The index of every package.
    pub index: &'i Index<'a>,
    /// The package's import path.
    pub import_path: &'a str,
    /// The Go file's imports (local name -> import path).
    pub imports: &'a BTreeMap<String, String>,
    /// The Rust file's `use` lines.
    pub uses: &'i mut Uses,
}

impl FileCx<'_, '_> {
    /// The Rust type of `ty` (a pointer's pointee: the field decides about `Option`).
    pub fn rust_type(&mut self, ty: &TypeExpr) -> Result<String, Diagnostic> {
        match &ty.kind {
            TypeKind::Pointer(inner) => self.rust_type(inner),
            TypeKind::Slice(inner) => {
                if matches!(&inner.kind, TypeKind::Named { package: None, name } if name == "byte" || name == "uint8") {
                    return Ok(self.uses.name("k8s_openapi::ByteString"));
                }
                Ok(format!("Vec<{}>", self.rust_type(inner)?))
            }
            TypeKind::Map(k, v) => {
                self.uses.map = true;
                Ok(format!("BTreeMap<{}, {}>", self.rust_type(k)?, self.rust_type(v)?))
            }
            TypeKind::Named { package: None, name } => {
                if let Some(p) = primitive(name) {
                    return Ok(p.to_string());
                }
                if self.index.types.contains_key(&(self.import_path, name.as_str())) {
                    return Ok(name.clone());
                }
                Err(Diagnostic::error(&ty.loc, format!("type `{name}` is not declared in package `{}`", self.import_path))
                    .label("unknown type")
                    .help("declare it in the package, or import the package that declares it"))
            }
            TypeKind::Named {
                package: Some(local),
                name,
            } => {
                // A package written as its import path (apimachinery's List, spelled out here).
                let known = local.contains('/').then(|| local.clone());
                let Some(path) = known.as_ref().or_else(|| self.imports.get(local)) else {
                    return Err(Diagnostic::error(&ty.loc, format!("package `{local}` is not imported by this file"))
                        .label("unknown package")
                        .help("the file must compile with `go build`"));
                };
                let path = path.clone();
                let rust = self.external(&path, name, ty)?;
                Ok(self.uses.name(&rust))
            }
            TypeKind::Struct(..) => Err(Diagnostic::error(&ty.loc, "an anonymous struct has no Rust form here")
                .label("anonymous struct")
                .help("declare it as a named type and use its name")),
            TypeKind::Unsupported(what) => Err(Diagnostic::error(
                &ty.loc,
                format!("{what} cannot be serialized as a Kubernetes API field"),
            )
            .label(what.to_string())
            .help("API types hold data only (structs, strings, numbers, lists, maps); leave this field out of the API type or mark it `json:\"-\"`")),
        }
    }

    /// The full Rust path of type `name` of Go package `path`.
    fn external(&self, path: &str, name: &str, at: &TypeExpr) -> Result<String, Diagnostic> {
        if let Some((_, _, rust)) = APIMACHINERY.iter().find(|(p, n, _)| *p == path && *n == name) {
            return Ok(rust.to_string());
        }
        if path == META {
            if K8S_META_TYPES.contains(&name) {
                return Ok(format!("{K8S_META}::{name}"));
            }
            if RUNTIME_META_TYPES.contains(&name) {
                return Ok(format!("{}::meta::v1::{name}", self.index.runtime));
            }
            return Err(unmapped(at, path, name, "k8s-openapi has no counterpart of it"));
        }
        if self.index.modules.contains_key(path) && !self.index.types.contains_key(&(path, name)) {
            return Err(
                Diagnostic::error(&at.loc, format!("type `{name}` is not declared in package `{path}`"))
                    .label("unknown type"),
            );
        }
        match self.index.rust_module(path) {
            Some(module) => Ok(format!("{module}::{name}")),
            None => Err(unmapped(at, path, name, "it is neither imported nor mapped")),
        }
    }
}

impl FileCx<'_, '_> {
    /// Whether Go type `ty` holds a string, number or bool (through declared types such as
    /// `type Protocol string` and apimachinery's `types.UID`), and is not a string enum, whose
    /// empty value the runtime already reads as unset.
    pub fn is_scalar(&self, ty: &TypeExpr) -> bool {
        let TypeKind::Named { package, name } = &ty.kind else {
            return false;
        };
        let path = match package {
            None if primitive(name).is_some() => return true,
            None => self.import_path,
            Some(local) => match self.imports.get(local) {
                Some(path) => path.as_str(),
                None => return false,
            },
        };
        if let Some((_, _, rust)) = APIMACHINERY.iter().find(|(p, n, _)| *p == path && n == name) {
            return *rust == "String";
        }
        match self.index.types.get(&(path, name.as_str())) {
            Some((decl, Shape::Alias)) => {
                matches!(&decl.ty.kind, TypeKind::Named { package: None, name } if primitive(name).is_some())
            }
            _ => false,
        }
    }
}

impl Index<'_> {
    /// The Rust module of Go package `path`: imported in this run, mapped by `--extern`, or
    /// k8s.io/api's package in k8s-openapi.
    pub fn rust_module(&self, path: &str) -> Option<String> {
        if let Some(module) = self.modules.get(path) {
            return Some(module.clone());
        }
        for (go, rust) in &self.externs {
            if let Some(rest) = path.strip_prefix(go.as_str())
                && (rest.is_empty() || rest.starts_with('/'))
            {
                let tail: String = rest
                    .split('/')
                    .filter(|s| !s.is_empty())
                    .map(|s| format!("::{}", super::names::ident(s)))
                    .collect();
                return Some(format!("{rust}{tail}"));
            }
        }
        path.strip_prefix("k8s.io/api/")
            .map(|rest| format!("k8s_openapi::api::{}", rest.replace('/', "::")))
    }
}

fn unmapped(at: &TypeExpr, path: &str, name: &str, why: &str) -> Diagnostic {
    Diagnostic::error(&at.loc, format!("`{path}.{name}` has no Rust path: {why}"))
        .label("no Rust path")
        .help(format!(
            "import `{path}` in the same run, or name its Rust module with `--extern {path}=<rust path>`"
        ))
}

#[cfg(test)]
mod tests {
    use super::Uses;

    #[test]
    fn a_long_use_line_is_wrapped_as_rustfmt_wraps_it() {
        let mut uses = Uses::default();
        for name in [
            "Condition",
            "DeleteOptions",
            "LabelSelector",
            "ListMeta",
            "ObjectMeta",
            "Time",
        ] {
            uses.name(&format!("k8s_openapi::apimachinery::pkg::apis::meta::v1::{name}"));
        }
        uses.name("kube_core::TypeMeta");
        assert_eq!(
            uses.lines().join("\n"),
            "use k8s_openapi::apimachinery::pkg::apis::meta::v1::{\n    Condition, DeleteOptions, LabelSelector, ListMeta, ObjectMeta, Time,\n};\nuse kube_core::TypeMeta;"
        );
    }
}
