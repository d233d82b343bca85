//! What a rule costs: the estimate made when the CRD is written (comprehensions sized by the
//! schema's `maxItems`/`maxProperties`, else by what a request can hold), and the cost of one
//! evaluation on the actual value, counted before the rule runs so that a rule over a hostile
//! value is refused without being evaluated. Both count one per expression node and one per
//! comprehension step, as cel-go's cost model roughly does.

use cel::common::ast::Expr;
use serde_json::Value;

use crate::schema::Structural;

/// Kubernetes' per-expression estimated cost limit (`StaticEstimatedCostLimit`).
pub(super) const COST_LIMIT: f64 = 10_000_000.0;

/// Kubernetes' limit on one evaluation of one rule (`PerCallLimit`).
pub(super) const PER_CALL_LIMIT: f64 = 1_000_000.0;

/// Kubernetes' budget for all the rules of one object's validation (`RuntimeCELCostBudget`).
pub(super) const RUNTIME_BUDGET: f64 = 10_000_000.0;

/// The request body limit cost estimates size unbounded lists and maps by (3 MiB).
const MAX_REQUEST_BYTES: f64 = 3_145_728.0;

/// What an identifier in a rule stands for, to size comprehensions over it.
#[derive(Clone, Copy)]
pub(super) enum Bound<'a> {
    /// A value of this schema.
    Node(&'a Structural),
    /// A value whose schema is not known (it hides an outer name).
    Unknown,
}

/// The estimated cost of `expr`: one per node, a comprehension its body times the most items
/// its range can hold (the schema's `maxItems`/`maxProperties`, else what 3 MiB holds).
pub(super) fn cost(expr: &Expr, scope: &[(&str, Bound<'_>)]) -> f64 {
    match expr {
        Expr::Comprehension(c) => {
            let range = schema_of(&c.iter_range.expr, scope);
            let items = range.map(max_cardinality).unwrap_or(1.0);
            let mut inner: Vec<(&str, Bound<'_>)> = scope.to_vec();
            match range.and_then(|r| r.items.as_deref().or(r.additional.as_deref())) {
                Some(item) => inner.push((c.iter_var.as_str(), Bound::Node(item))),
                None => inner.push((c.iter_var.as_str(), Bound::Unknown)),
            }
            let body = cost(&c.loop_step.expr, &inner) + cost(&c.loop_cond.expr, &inner);
            cost(&c.iter_range.expr, scope) + items * (1.0 + body) + cost(&c.result.expr, scope)
        }
        Expr::Call(call) => {
            1.0 + call.target.as_deref().map_or(0.0, |t| cost(&t.expr, scope))
                + call.args.iter().map(|a| cost(&a.expr, scope)).sum::<f64>()
        }
        Expr::Select(s) => 1.0 + cost(&s.operand.expr, scope),
        Expr::List(l) => 1.0 + l.elements.iter().map(|e| cost(&e.expr, scope)).sum::<f64>(),
        _ => 1.0,
    }
}

/// The schema a path expression (`self.spec.items`, `x.ports`) reads, where it is one.
pub(super) fn schema_of<'a>(expr: &Expr, scope: &[(&str, Bound<'a>)]) -> Option<&'a Structural> {
    match expr {
        Expr::Ident(name) => scope
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, bound)| match bound {
                Bound::Node(s) => Some(*s),
                Bound::Unknown => None,
            }),
        Expr::Select(s) => super::selected_field(schema_of(&s.operand.expr, scope)?, &s.field),
        _ => None,
    }
}

/// The most entries a list or map of schema `s` can hold.
fn max_cardinality(s: &Structural) -> f64 {
    let declared = s.checks.max_items.or(s.checks.max_properties);
    if let Some(n) = declared {
        return n as f64;
    }
    // Each entry takes at least its smallest serialization and a separator.
    let item = s.items.as_deref().or(s.additional.as_deref());
    let smallest = item.map_or(1.0, min_size) + if s.type_ == "object" { 4.0 } else { 1.0 };
    MAX_REQUEST_BYTES / smallest
}

/// The fewest bytes a value of `s` serializes to.
fn min_size(s: &Structural) -> f64 {
    match s.type_.as_str() {
        "string" => 2.0,
        "object" | "array" => 2.0,
        _ => 1.0,
    }
}

/// The cost of evaluating `expr` with the names of `scope` bound to these values (`None` where
/// the value is not a stored one, such as a map key or an accumulator). Counting stops once it
/// passes `limit`, so that sizing a hostile value costs no more than the limit allows.
pub(super) fn actual(expr: &Expr, scope: &[(&str, Option<&Value>)], limit: f64) -> f64 {
    match expr {
        Expr::Comprehension(c) => {
            let mut total = actual(&c.iter_range.expr, scope, limit) + actual(&c.result.expr, scope, limit);
            let body = |item: Option<&Value>, limit: f64| {
                let mut inner = scope.to_vec();
                inner.push((c.iter_var.as_str(), item));
                1.0 + actual(&c.loop_step.expr, &inner, limit) + actual(&c.loop_cond.expr, &inner, limit)
            };
            match value_of(&c.iter_range.expr, scope) {
                // A body with no comprehension of its own costs the same for every item.
                Some(Value::Array(items)) if nested(&c.loop_step.expr) || nested(&c.loop_cond.expr) => {
                    for item in items {
                        total += body(Some(item), limit - total);
                        if total > limit {
                            break;
                        }
                    }
                }
                _ => {
                    let items = range_len(&c.iter_range.expr, scope);
                    total += items * body(None, limit);
                }
            }
            total
        }
        Expr::Call(call) => {
            1.0 + call.target.as_deref().map_or(0.0, |t| actual(&t.expr, scope, limit))
                + call.args.iter().map(|a| actual(&a.expr, scope, limit)).sum::<f64>()
        }
        Expr::Select(s) => 1.0 + actual(&s.operand.expr, scope, limit),
        Expr::List(l) => 1.0 + l.elements.iter().map(|e| actual(&e.expr, scope, limit)).sum::<f64>(),
        _ => 1.0,
    }
}

/// Whether `expr` holds a comprehension.
fn nested(expr: &Expr) -> bool {
    match expr {
        Expr::Comprehension(_) => true,
        Expr::Call(call) => {
            call.target.as_deref().is_some_and(|t| nested(&t.expr)) || call.args.iter().any(|a| nested(&a.expr))
        }
        Expr::Select(s) => nested(&s.operand.expr),
        Expr::List(l) => l.elements.iter().any(|e| nested(&e.expr)),
        _ => false,
    }
}

/// The stored value a path expression (`self.spec.items`, `x.ports`) reads, where it is one.
fn value_of<'v>(expr: &Expr, scope: &[(&str, Option<&'v Value>)]) -> Option<&'v Value> {
    match expr {
        Expr::Ident(name) => scope.iter().rev().find(|(n, _)| n == name).and_then(|(_, v)| *v),
        Expr::Select(s) => value_of(&s.operand.expr, scope)?.get(&s.field),
        _ => None,
    }
}

/// How many items a comprehension over `expr` steps through: a stored list's or map's size, a
/// literal list's, and for a comprehension's result (`map`, `filter`) its own range's.
fn range_len(expr: &Expr, scope: &[(&str, Option<&Value>)]) -> f64 {
    match expr {
        Expr::Comprehension(c) => range_len(&c.iter_range.expr, scope),
        Expr::List(l) => l.elements.len() as f64,
        _ => match value_of(expr, scope) {
            Some(Value::Array(items)) => items.len() as f64,
            Some(Value::Object(map)) => map.len() as f64,
            _ => 1.0,
        },
    }
}
