//! The part of cel-go's type check a rule needs against its schema: every field it selects from
//! an object whose fields the schema closes (no `additionalProperties`, no preserved unknown
//! fields) must be one of its properties, or the CRD is refused as Kubernetes refuses it,
//! `compilation failed: ERROR: <input>:1:5: undefined field 'foo'` with the line and a caret.

use cel::common::ast::{EntryExpr, Expr, IdedExpr};

use super::{Bound, Rule, schema_of};
use crate::schema::Structural;

/// The fields of an object every resource has, though its schema need not list them.
const RESOURCE_FIELDS: &[&str] = &["apiVersion", "kind", "metadata"];

impl Rule {
    /// The first field the rule selects that `s` (the rule's node; `root` the whole schema) does
    /// not have, as cel-go reports it.
    pub fn undefined_field(&self, s: &Structural, root: &Structural) -> Option<String> {
        let scope = [("self", Bound::Node(s)), ("oldSelf", Bound::Node(s))];
        let mut found = Vec::new();
        walk(self.program.expression(), &scope, root, &mut found);
        let (id, field) = found.into_iter().next()?;
        let source = self.rule.as_str();
        // The select's position is its dot, as cel-go's is.
        let start = self
            .program
            .source_info()
            .offset_for(id)
            .map(|(start, _)| start as usize)
            .filter(|&at| source[at.min(source.len())..].starts_with(&format!(".{field}")))
            .or_else(|| source.find(&format!(".{field}")))
            .unwrap_or(0);
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line = source[..start].matches('\n').count() + 1;
        let column = source[line_start..start].chars().count();
        let text = source[line_start..].lines().next().unwrap_or_default();
        Some(format!(
            "ERROR: <input>:{line}:{}: undefined field '{field}'\n | {text}\n | {}^",
            column + 1,
            ".".repeat(column)
        ))
    }
}

/// Whether an object of schema `s` has only the fields its schema lists.
fn closed(s: &Structural) -> bool {
    s.type_ == "object" && !s.preserve_unknown && s.additional.is_none()
}

fn walk<'a>(expr: &IdedExpr, scope: &[(&str, Bound<'a>)], root: &Structural, found: &mut Vec<(u64, String)>) {
    match &expr.expr {
        Expr::Select(select) => {
            if let Some(node) = schema_of(&select.operand.expr, scope) {
                let resource = std::ptr::eq(node, root) || node.embedded;
                let known = node
                    .properties
                    .keys()
                    .any(|p| super::escape(p).as_deref() == Some(&select.field))
                    || (resource && RESOURCE_FIELDS.contains(&select.field.as_str()));
                if closed(node) && !known {
                    found.push((expr.id, select.field.clone()));
                }
            }
            walk(&select.operand, scope, root, found);
        }
        Expr::Comprehension(c) => {
            walk(&c.iter_range, scope, root, found);
            walk(&c.accu_init, scope, root, found);
            let range = schema_of(&c.iter_range.expr, scope);
            let mut inner: Vec<(&str, Bound<'a>)> = scope.to_vec();
            match range.and_then(|r| r.items.as_deref().or(r.additional.as_deref())) {
                Some(item) => inner.push((c.iter_var.as_str(), Bound::Node(item))),
                None => inner.push((c.iter_var.as_str(), Bound::Unknown)),
            }
            for part in [&c.loop_cond, &c.loop_step, &c.result] {
                walk(part, &inner, root, found);
            }
        }
        Expr::Call(call) => {
            if let Some(target) = &call.target {
                walk(target, scope, root, found);
            }
            for arg in &call.args {
                walk(arg, scope, root, found);
            }
        }
        Expr::List(list) => {
            for element in &list.elements {
                walk(element, scope, root, found);
            }
        }
        Expr::Map(map) => {
            for entry in &map.entries {
                if let EntryExpr::MapEntry(e) = &entry.expr {
                    walk(&e.key, scope, root, found);
                    walk(&e.value, scope, root, found);
                }
            }
        }
        _ => {}
    }
}
