//! One Go file through tree-sitter's Go grammar into the importer's [`GoFile`]: the package
//! clause, imports, type and constant declarations with their doc comments. Syntax errors are
//! located errors; function and variable declarations are read past.

use std::collections::BTreeSet;
use std::sync::Arc;

use tree_sitter::{Node, Parser};

use super::comments::{self, Comment, Group};
use super::literal::string_value;
use super::{ConstDecl, Expr, Field, GoFile, TypeDecl, TypeExpr, TypeKind, is_tag_line};
use crate::diag::{Diagnostic, Diagnostics, SourceLoc};

/// Parses `src`, shown in messages as `display`; errors go to `diags`.
pub fn parse(display: &str, name: &str, src: &str, diags: &mut Diagnostics) -> Option<GoFile> {
    let mut parser = Parser::new();
    if let Err(e) = parser.set_language(&tree_sitter_go::LANGUAGE.into()) {
        diags.push(Diagnostic::error(
            &whole(display),
            format!("the Go grammar cannot be loaded: {e}"),
        ));
        return None;
    }
    let Some(tree) = parser.parse(src, None) else {
        diags.push(Diagnostic::error(&whole(display), "the Go parser gave up on this file"));
        return None;
    };
    let root = tree.root_node();
    let cx = Cx {
        src,
        file: Arc::from(display),
    };
    if root.has_error() {
        syntax_errors(&cx, root, diags);
        return None;
    }
    let mut raw = Vec::new();
    collect_comments(&cx, root, &mut raw);
    let groups = comments::groups(src, &raw);
    let mut reader = Reader {
        cx,
        groups,
        used: BTreeSet::new(),
        file: GoFile {
            display: display.to_string(),
            name: name.to_string(),
            ..GoFile::default()
        },
    };
    reader.file.tag_lines = reader
        .groups
        .iter()
        .flat_map(|g| g.lines.iter().filter(|l| is_tag_line(l)).cloned())
        .collect();
    reader.read(root, diags);
    Some(reader.file)
}

fn whole(display: &str) -> SourceLoc {
    SourceLoc {
        file: display.into(),
        line: 1,
        col: 1,
        len: 1,
    }
}

struct Cx<'s> {
    src: &'s str,
    file: Arc<str>,
}

impl Cx<'_> {
    fn text(&self, node: Node<'_>) -> &str {
        &self.src[node.byte_range()]
    }

    fn loc(&self, node: Node<'_>) -> SourceLoc {
        let start = node.start_byte();
        let line_start = self.src[..start].rfind('\n').map_or(0, |i| i + 1);
        let first_line_end = self.src[start..]
            .find('\n')
            .map_or(node.end_byte(), |i| (start + i).min(node.end_byte()));
        SourceLoc {
            file: self.file.clone(),
            line: node.start_position().row as u32 + 1,
            col: self.src[line_start..start].chars().count() as u32 + 1,
            len: (self.src[start..first_line_end].chars().count() as u32).max(1),
        }
    }
}

fn syntax_errors(cx: &Cx<'_>, node: Node<'_>, diags: &mut Diagnostics) {
    if node.is_missing() {
        diags.push(
            Diagnostic::error(&cx.loc(node), format!("Go syntax error: missing `{}`", node.kind()))
                .label("expected here")
                .help("the file must compile with `go build`; fix it and import again"),
        );
        return;
    }
    if node.is_error() {
        diags.push(
            Diagnostic::error(&cx.loc(node), "Go syntax error")
                .label("the Go parser cannot read this")
                .help("the file must compile with `go build`; fix it and import again"),
        );
        return;
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if child.has_error() {
            syntax_errors(cx, child, diags);
        }
    }
}

fn collect_comments(cx: &Cx<'_>, node: Node<'_>, out: &mut Vec<Comment>) {
    if node.kind() == "comment" {
        let start = node.start_byte();
        let line_start = cx.src[..start].rfind('\n').map_or(0, |i| i + 1);
        out.push(Comment {
            text: cx.text(node).to_string(),
            start_row: node.start_position().row,
            end_row: node.end_position().row,
            start_byte: start,
            end_byte: node.end_byte(),
            own_line: cx.src[line_start..start].trim().is_empty(),
        });
        return;
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        collect_comments(cx, child, out);
    }
}

struct Reader<'s> {
    cx: Cx<'s>,
    groups: Vec<Group>,
    used: BTreeSet<usize>,
    file: GoFile,
}

impl Reader<'_> {
    /// The lead comment group ending on the line above `row`, marked used.
    fn doc_above(&mut self, row: usize, after_row: Option<usize>) -> Option<usize> {
        let i = self
            .groups
            .iter()
            .position(|g| g.lead && g.end_row + 1 == row && after_row.is_none_or(|a| g.start_row > a))?;
        self.used.insert(i);
        Some(i)
    }

    fn lines(&self, group: Option<usize>) -> Vec<String> {
        group.map(|i| self.groups[i].lines.clone()).unwrap_or_default()
    }

    fn read(&mut self, root: Node<'_>, diags: &mut Diagnostics) {
        let mut cursor = root.walk();
        for node in root.named_children(&mut cursor) {
            match node.kind() {
                "package_clause" => self.package_clause(node),
                "import_declaration" => self.imports(node),
                "type_declaration" => {
                    let mut c = node.walk();
                    for spec in node.named_children(&mut c) {
                        if matches!(spec.kind(), "type_spec" | "type_alias") {
                            self.type_spec(spec, diags);
                        }
                    }
                }
                "const_declaration" => self.consts(node),
                _ => {}
            }
        }
    }

    fn package_clause(&mut self, node: Node<'_>) {
        let mut c = node.walk();
        if let Some(name) = node.named_children(&mut c).find(|n| n.kind() == "package_identifier") {
            self.file.package = self.cx.text(name).to_string();
        }
        let row = node.start_position().row;
        let doc = self.doc_above(row, None);
        self.file.package_doc = self.lines(doc);
        // The file's opening group, when it is not the package comment, is its license.
        if let Some(first) = self.groups.first()
            && first.end_row < row
            && doc != Some(0)
        {
            self.file.header = first.lines.clone();
        }
    }

    fn imports(&mut self, node: Node<'_>) {
        let mut specs = Vec::new();
        let mut c = node.walk();
        for child in node.named_children(&mut c) {
            match child.kind() {
                "import_spec" => specs.push(child),
                "import_spec_list" => {
                    let mut c2 = child.walk();
                    specs.extend(child.named_children(&mut c2).filter(|n| n.kind() == "import_spec"));
                }
                _ => {}
            }
        }
        for spec in specs {
            let Some(path) = spec.child_by_field_name("path") else {
                continue;
            };
            let Ok(path) = string_value(self.cx.text(path)) else {
                continue;
            };
            let local = match spec.child_by_field_name("name") {
                Some(n) => self.cx.text(n).to_string(),
                None => path.rsplit('/').next().unwrap_or(&path).to_string(),
            };
            self.file.imports.insert(local, path);
        }
    }

    fn type_spec(&mut self, spec: Node<'_>, diags: &mut Diagnostics) {
        let (Some(name), Some(ty)) = (spec.child_by_field_name("name"), spec.child_by_field_name("type")) else {
            return;
        };
        let row = name.start_position().row;
        let doc = self.doc_above(row, None);
        let second_end = match doc {
            Some(i) => self.groups[i].start_row.checked_sub(1),
            None => row.checked_sub(1),
        };
        let second = second_end.and_then(|r| self.doc_above(r, None));
        let ty = if spec.child_by_field_name("type_parameters").is_some() {
            TypeExpr {
                kind: TypeKind::Unsupported("a generic type"),
                loc: self.cx.loc(spec),
            }
        } else {
            self.type_expr(ty, diags)
        };
        let decl = TypeDecl {
            name: self.cx.text(name).to_string(),
            ty,
            alias: spec.kind() == "type_alias",
            doc: self.lines(doc),
            second: self.lines(second),
            loc: self.cx.loc(name),
        };
        self.file.types.push(decl);
    }

    fn type_expr(&mut self, node: Node<'_>, diags: &mut Diagnostics) -> TypeExpr {
        let loc = self.cx.loc(node);
        let child = |field: &str| node.child_by_field_name(field);
        let kind = match node.kind() {
            "type_identifier" => TypeKind::Named {
                package: None,
                name: self.cx.text(node).to_string(),
            },
            "qualified_type" => TypeKind::Named {
                package: child("package").map(|p| self.cx.text(p).to_string()),
                name: child("name").map(|n| self.cx.text(n).to_string()).unwrap_or_default(),
            },
            "pointer_type" | "parenthesized_type" => {
                let mut c = node.walk();
                match node.named_children(&mut c).next() {
                    Some(inner) if node.kind() == "pointer_type" => {
                        TypeKind::Pointer(Box::new(self.type_expr(inner, diags)))
                    }
                    Some(inner) => return self.type_expr(inner, diags),
                    None => TypeKind::Unsupported("an empty type"),
                }
            }
            "slice_type" => match child("element") {
                Some(e) => TypeKind::Slice(Box::new(self.type_expr(e, diags))),
                None => TypeKind::Unsupported("a slice"),
            },
            "map_type" => match (child("key"), child("value")) {
                (Some(k), Some(v)) => {
                    TypeKind::Map(Box::new(self.type_expr(k, diags)), Box::new(self.type_expr(v, diags)))
                }
                _ => TypeKind::Unsupported("a map"),
            },
            "struct_type" => self.struct_type(node, diags),
            "array_type" => TypeKind::Unsupported("an array"),
            "interface_type" => TypeKind::Unsupported("an interface"),
            "function_type" => TypeKind::Unsupported("a func"),
            "channel_type" => TypeKind::Unsupported("a channel"),
            "generic_type" => TypeKind::Unsupported("a generic type"),
            _ => TypeKind::Unsupported("this type form"),
        };
        TypeExpr { kind, loc }
    }

    fn struct_type(&mut self, node: Node<'_>, diags: &mut Diagnostics) -> TypeKind {
        let mut c = node.walk();
        let Some(list) = node
            .named_children(&mut c)
            .find(|n| n.kind() == "field_declaration_list")
        else {
            return TypeKind::Struct(Vec::new(), Vec::new());
        };
        let open_row = list.start_position().row;
        let close_row = list.end_position().row;
        let mut fields = Vec::new();
        let mut c = list.walk();
        for decl in list.named_children(&mut c).filter(|n| n.kind() == "field_declaration") {
            let row = decl.start_position().row;
            let doc = self.doc_above(row, Some(open_row));
            let mut nc = decl.walk();
            let names: Vec<String> = decl
                .children_by_field_name("name", &mut nc)
                .map(|n| self.cx.text(n).to_string())
                .collect();
            let Some(ty_node) = decl.child_by_field_name("type") else {
                continue;
            };
            let mut ty = self.type_expr(ty_node, diags);
            if names.is_empty() {
                let mut cc = decl.walk();
                let pointer = decl.children(&mut cc).any(|n| n.kind() == "*");
                if pointer {
                    let loc = self.cx.loc(decl);
                    ty = TypeExpr {
                        kind: TypeKind::Pointer(Box::new(ty)),
                        loc,
                    };
                }
            }
            let tag = decl
                .child_by_field_name("tag")
                .and_then(|t| string_value(self.cx.text(t)).ok());
            fields.push(Field {
                names,
                ty,
                tag,
                doc: self.lines(doc),
                detached: Vec::new(),
                loc: self.cx.loc(decl),
            });
        }
        // Groups inside the braces that document no field stay where they were.
        let mut tail = Vec::new();
        for i in 0..self.groups.len() {
            let g = &self.groups[i];
            if self.used.contains(&i) || g.start_row <= open_row || g.end_row >= close_row {
                continue;
            }
            let lines = g.lines.clone();
            let end = g.end_row;
            self.used.insert(i);
            match fields.iter_mut().find(|f| f.loc.line as usize > end + 1) {
                Some(f) => f.detached.push(lines),
                None => tail.push(lines),
            }
        }
        TypeKind::Struct(fields, tail)
    }

    fn consts(&mut self, node: Node<'_>) {
        // A spec without a type and value repeats the previous spec's, as Go's const groups do.
        let mut last: (Option<TypeExpr>, Vec<Expr>) = (None, Vec::new());
        let mut c = node.walk();
        let specs: Vec<Node<'_>> = node
            .named_children(&mut c)
            .filter(|n| n.kind() == "const_spec")
            .collect();
        for spec in specs {
            let row = spec.start_position().row;
            let doc = self.doc_above(row, None);
            let mut nc = spec.walk();
            let names: Vec<Node<'_>> = spec.children_by_field_name("name", &mut nc).collect();
            let mut diags = Diagnostics::new();
            let ty = spec.child_by_field_name("type").map(|t| self.type_expr(t, &mut diags));
            // Types of constants are names; nothing in them is reported.
            let _ = diags.into_vec();
            let values: Vec<Expr> = spec
                .child_by_field_name("value")
                .map(|list| {
                    let mut lc = list.walk();
                    list.named_children(&mut lc)
                        .filter(|n| n.kind() != "comment")
                        .map(|e| self.expr(e))
                        .collect()
                })
                .unwrap_or_default();
            if values.is_empty() && ty.is_none() {
                // Implicit repetition.
            } else {
                last = (ty, values);
            }
            for (i, name) in names.iter().enumerate() {
                self.file.consts.push(ConstDecl {
                    name: self.cx.text(*name).to_string(),
                    ty: last.0.clone(),
                    value: last.1.get(i).cloned(),
                    doc: self.lines(doc),
                    loc: self.cx.loc(*name),
                });
            }
        }
    }

    fn expr(&self, node: Node<'_>) -> Expr {
        match node.kind() {
            "interpreted_string_literal" | "raw_string_literal" => match string_value(self.cx.text(node)) {
                Ok(s) => Expr::Str(s),
                Err(_) => Expr::Other(self.cx.text(node).to_string()),
            },
            "identifier" => Expr::Ident(self.cx.text(node).to_string()),
            "selector_expression" => match (node.child_by_field_name("operand"), node.child_by_field_name("field")) {
                (Some(o), Some(f)) if o.kind() == "identifier" => {
                    Expr::Selector(self.cx.text(o).to_string(), self.cx.text(f).to_string())
                }
                _ => Expr::Other(self.cx.text(node).to_string()),
            },
            "binary_expression" => {
                let op = node.child_by_field_name("operator").map(|o| self.cx.text(o));
                match (op, node.child_by_field_name("left"), node.child_by_field_name("right")) {
                    (Some("+"), Some(l), Some(r)) => Expr::Concat(Box::new(self.expr(l)), Box::new(self.expr(r))),
                    _ => Expr::Other(self.cx.text(node).to_string()),
                }
            }
            "call_expression" => {
                let args = node
                    .child_by_field_name("arguments")
                    .map(|a| {
                        let mut c = a.walk();
                        a.named_children(&mut c)
                            .filter(|n| n.kind() != "comment")
                            .map(|n| self.expr(n))
                            .collect()
                    })
                    .unwrap_or_default();
                match node.child_by_field_name("function") {
                    Some(f) => Expr::Call(Box::new(self.expr(f)), args),
                    None => Expr::Other(self.cx.text(node).to_string()),
                }
            }
            "parenthesized_expression" => {
                let mut c = node.walk();
                let inner = node.named_children(&mut c).find(|n| n.kind() != "comment");
                inner.map_or_else(|| Expr::Other(self.cx.text(node).to_string()), |n| self.expr(n))
            }
            _ => Expr::Other(self.cx.text(node).to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(src: &str) -> GoFile {
        let mut diags = Diagnostics::new();
        let f = parse("t.go", "t.go", src, &mut diags).expect("parses");
        diags.finish().expect("no errors");
        f
    }

    #[test]
    fn declarations_with_their_docs() {
        let f = file(
            r#"// Copyright x

// Package v1 is a test.
// +groupName=example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/api/core/v1"
)

// +genclient

// Widget is a widget.
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type Widget struct {
	metav1.TypeMeta `json:",inline"`
	// Standard object metadata.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Size, one of Small and Large.
	Size Size `json:"size"` // trailing

	// Gone int `json:"gone"`

	Pod *v1.Pod `json:"pod,omitempty"`
}

// Size is a size.
// +enum
type Size string

const (
	// Small is small.
	Small Size = "S"
	Large Size = "L" + "arge"
	Other = Size("o")
)

func (w *Widget) X() {}
"#,
        );
        assert_eq!(f.package, "v1");
        assert_eq!(f.package_doc, ["Package v1 is a test.", "+groupName=example.com"]);
        assert_eq!(f.header, ["Copyright x"]);
        assert_eq!(f.imports["metav1"], "k8s.io/apimachinery/pkg/apis/meta/v1");
        assert_eq!(f.imports["v1"], "k8s.io/api/core/v1");
        let w = &f.types[0];
        assert_eq!(w.name, "Widget");
        assert_eq!(w.second, ["+genclient"]);
        assert_eq!(w.doc[0], "Widget is a widget.");
        let TypeKind::Struct(fields, tail) = &w.ty.kind else {
            panic!()
        };
        assert!(tail.is_empty());
        assert!(fields[0].embedded() && fields[0].doc.is_empty());
        assert_eq!(fields[1].doc, ["Standard object metadata.", "+optional"]);
        assert_eq!(fields[2].names, ["Size"]);
        assert_eq!(fields[3].ty.go_text(), "*v1.Pod");
        assert_eq!(
            fields[3].detached,
            [
                vec!["trailing".to_string()],
                vec!["Gone int `json:\"gone\"`".to_string()]
            ]
        );
        assert_eq!(f.consts.len(), 3);
        assert!(matches!(&f.consts[1].value, Some(Expr::Concat(..))));
        assert!(matches!(&f.consts[2].value, Some(Expr::Call(..))));
        assert_eq!(f.consts[0].doc, ["Small is small."]);
    }

    #[test]
    fn syntax_errors_are_located() {
        let mut diags = Diagnostics::new();
        assert!(
            parse(
                "t.go",
                "t.go",
                "package v1\n\ntype X struct {\n\tA int `json:\"a\"`\n\tB map[string\n}\n",
                &mut diags
            )
            .is_none()
        );
        let errors = diags.into_vec();
        assert!(!errors.is_empty());
        assert!(errors.iter().all(|e| e.loc.line >= 5), "{errors:?}");
    }
}
