//! What the importer reads of Go: one file's package clause, imports, type and constant
//! declarations and their comment groups, as go/ast holds them, parsed by tree-sitter's Go
//! grammar (`parse`), with comments grouped as go/parser groups them (`comments`) and literals
//! read as Go reads them (`literal`).

pub mod comments;
pub mod literal;
pub mod parse;

use std::collections::BTreeMap;

use crate::diag::SourceLoc;

/// A Go type expression with where it was written.
#[derive(Clone, Debug)]
pub struct TypeExpr {
    /// What the expression is.
    pub kind: TypeKind,
    /// Where it was written.
    pub loc: SourceLoc,
}

/// The Go type forms an API type can use; the rest are kept as `Unsupported` so the translation
/// can say where they are.
#[derive(Clone, Debug)]
pub enum TypeKind {
    /// `Name` or `pkg.Name`.
    Named {
        /// The package's local name, for a qualified name.
        package: Option<String>,
        /// The type's name.
        name: String,
    },
    /// `*T`.
    Pointer(Box<TypeExpr>),
    /// `[]T`.
    Slice(Box<TypeExpr>),
    /// `map[K]V`.
    Map(Box<TypeExpr>, Box<TypeExpr>),
    /// `struct { ... }`: its fields, and the comment groups after the last field.
    Struct(Vec<Field>, Vec<Vec<String>>),
    /// A form API types do not use (interface, func, chan, array, generic): its Go name.
    Unsupported(&'static str),
}

impl TypeExpr {
    /// The expression as Go writes it, for messages.
    pub fn go_text(&self) -> String {
        match &self.kind {
            TypeKind::Named { package: Some(p), name } => format!("{p}.{name}"),
            TypeKind::Named { package: None, name } => name.clone(),
            TypeKind::Pointer(t) => format!("*{}", t.go_text()),
            TypeKind::Slice(t) => format!("[]{}", t.go_text()),
            TypeKind::Map(k, v) => format!("map[{}]{}", k.go_text(), v.go_text()),
            TypeKind::Struct(..) => "struct{...}".into(),
            TypeKind::Unsupported(what) => (*what).into(),
        }
    }

    /// The type a pointer points to, or the type itself.
    pub fn pointee(&self) -> &TypeExpr {
        match &self.kind {
            TypeKind::Pointer(t) => t,
            _ => self,
        }
    }
}

/// One field declaration of a struct.
#[derive(Clone, Debug)]
pub struct Field {
    /// The names it declares (`A, B int` declares two); empty for an embedded field.
    pub names: Vec<String>,
    /// Its type (for an embedded `*T`, the pointer).
    pub ty: TypeExpr,
    /// The struct tag's value (`json:"name,omitempty" protobuf:"..."`).
    pub tag: Option<String>,
    /// Its doc comment: the lead comment group ending on the line above it.
    pub doc: Vec<String>,
    /// Comment groups above it that document nothing (commented-out fields).
    pub detached: Vec<Vec<String>>,
    /// Where it starts.
    pub loc: SourceLoc,
}

impl Field {
    /// Whether the field is embedded (`metav1.TypeMeta`, `VolumeSource`).
    pub fn embedded(&self) -> bool {
        self.names.is_empty()
    }
}

/// `type Name T` or `type Name = T`.
#[derive(Clone, Debug)]
pub struct TypeDecl {
    /// The declared name.
    pub name: String,
    /// The type it is defined as.
    pub ty: TypeExpr,
    /// Whether it is a Go alias (`=`).
    pub alias: bool,
    /// The closest comment group (gengo's CommentLines).
    pub doc: Vec<String>,
    /// The group one blank line above that (gengo's SecondClosestCommentLines).
    pub second: Vec<String>,
    /// Where the name is.
    pub loc: SourceLoc,
}

/// A constant expression, as far as API constants need one: strings, `+`, names, conversions.
#[derive(Clone, Debug)]
pub enum Expr {
    /// A string literal's value.
    Str(String),
    /// A name in this package.
    Ident(String),
    /// `pkg.Name`.
    Selector(String, String),
    /// `a + b`.
    Concat(Box<Expr>, Box<Expr>),
    /// `T(x)`: a conversion (Go cannot tell it from a call in syntax).
    Call(Box<Expr>, Vec<Expr>),
    /// Anything else (numbers, iota, operators): its Go text.
    Other(String),
}

/// One constant.
#[derive(Clone, Debug)]
pub struct ConstDecl {
    /// Its name.
    pub name: String,
    /// Its declared type.
    pub ty: Option<TypeExpr>,
    /// Its value (a spec without one repeats the one before it, as Go's const groups do).
    pub value: Option<Expr>,
    /// Its doc comment.
    pub doc: Vec<String>,
    /// Where its name is.
    pub loc: SourceLoc,
}

/// One parsed Go file.
#[derive(Clone, Debug, Default)]
pub struct GoFile {
    /// Its display path.
    pub display: String,
    /// Its file name.
    pub name: String,
    /// The package clause's name.
    pub package: String,
    /// Local package name -> import path.
    pub imports: BTreeMap<String, String>,
    /// Type declarations in source order.
    pub types: Vec<TypeDecl>,
    /// Constants in source order.
    pub consts: Vec<ConstDecl>,
    /// The package comment's lines (the group ending on the line above `package`).
    pub package_doc: Vec<String>,
    /// Every tag line (`+name...`) of every comment group, in order: gengo reads a `doc.go`'s
    /// package tags from all of them.
    pub tag_lines: Vec<String>,
    /// The comment group that opens the file before the package comment (its license).
    pub header: Vec<String>,
}

/// Whether a comment line is a tag line (`+name`, `+k8s:...`), as gengo reads them.
pub fn is_tag_line(line: &str) -> bool {
    let s = line.trim_start();
    s.strip_prefix('+')
        .and_then(|r| r.chars().next())
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
}

/// A tag line's name: `k8s:deepcopy-gen` of `+k8s:deepcopy-gen=package`.
pub fn tag_name(line: &str) -> &str {
    let s = line.trim().trim_start_matches('+');
    let end = s.find(['=', ' ', '\t', '(']).unwrap_or(s.len());
    &s[..end]
}
