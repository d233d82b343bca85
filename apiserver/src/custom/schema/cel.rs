//! The `x-kubernetes-validations` rules of a structural schema, evaluated with the `cel` crate as
//! apiextensions-apiserver evaluates them with cel-go: `self` is the value at the rule's node,
//! `oldSelf` the stored one (a rule that reads it runs only on update, where the value has an
//! old counterpart), and a rule's estimated cost is bounded when the CRD is written, with
//! Kubernetes' budget, message and hint.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use cel::common::ast::Expr;
use cel::objects::{Key, Map};
use cel::{Context, Env, Program};
use runtime::validation::{BadValue, ErrorType, FieldError, Path};
use serde_json::Value;

use super::{SchemaError, Structural};

/// Kubernetes' per-expression estimated cost limit (`StaticEstimatedCostLimit`).
const COST_LIMIT: f64 = 10_000_000.0;

/// The request body limit cost estimates size unbounded lists and maps by (3 MiB).
const MAX_REQUEST_BYTES: f64 = 3_145_728.0;

/// The CEL environment of every rule: the standard library and the extensions Kubernetes
/// enables that the crate has (strings, lists, math).
static ENV: LazyLock<Arc<Env>> = LazyLock::new(|| {
    let mut env = Env::stdlib();
    // The crate's own extensions: a failure to add one would be a bug in it, and leaves the
    // standard library.
    let _ = env.add_extension(cel::extensions::strings);
    let _ = env.add_extension(cel::extensions::lists);
    let _ = env.add_extension(cel::extensions::math);
    Arc::new(env)
});

/// One compiled rule.
#[derive(Debug)]
pub struct Rule {
    /// `rule`, as written.
    pub rule: String,
    program: Program,
    /// `message`.
    message: Option<String>,
    /// `messageExpression`, compiled.
    message_expression: Option<Program>,
    /// The error type `reason` asks for (`FieldValueInvalid` unless said).
    reason: ErrorType,
    /// `fieldPath`, relative to the node (`.spec.replicas`).
    field_path: String,
    /// Whether the rule reads `oldSelf` (a transition rule).
    transition: bool,
    /// The rule as an error about it shows it (Go's internal `ValidationRule`).
    pub shown: BadValue,
}

/// A rule that does not compile, as the CRD's validation reports it.
pub type RuleError = SchemaError;

impl Rule {
    /// Compiles the rule `spec` (one `x-kubernetes-validations` entry) found at `path`.
    pub fn compile(spec: &Value, path: &str) -> Result<Rule, RuleError> {
        let text = |k: &str| spec.get(k).and_then(Value::as_str).map(str::to_string);
        let rule = text("rule").unwrap_or_default();
        // The rule as Go prints the internal `ValidationRule` an error is about.
        let shown = BadValue::Other(format!(
            "{{\"Rule\":{},\"Message\":{},\"MessageExpression\":{},\"Reason\":{},\"FieldPath\":{},\"OptionalOldSelf\":{}}}",
            json_text(&rule),
            json_text(&text("message").unwrap_or_default()),
            json_text(&text("messageExpression").unwrap_or_default()),
            spec.get("reason").cloned().unwrap_or(Value::Null),
            json_text(&text("fieldPath").unwrap_or_default()),
            spec.get("optionalOldSelf").cloned().unwrap_or(Value::Null),
        ));
        let error = |field: &str, value: BadValue, message: String| SchemaError {
            path: format!("{path}.{field}"),
            value,
            message,
        };
        if rule.trim().is_empty() {
            return Err(SchemaError {
                path: format!("{path}.rule"),
                value: BadValue::Omitted,
                message: "rule is not specified".into(),
            });
        }
        let program = ENV
            .compile(&rule)
            .map_err(|e| error("rule", shown.clone(), format!("compilation failed: {e}")))?;
        let message_expression = match text("messageExpression") {
            Some(m) => Some(ENV.compile(&m).map_err(|e| {
                error(
                    "messageExpression",
                    shown.clone(),
                    format!("messageExpression compilation failed: {e}"),
                )
            })?),
            None => None,
        };
        let reason = match text("reason").as_deref() {
            None | Some("FieldValueInvalid") => ErrorType::Invalid,
            Some("FieldValueForbidden") => ErrorType::Forbidden,
            Some("FieldValueRequired") => ErrorType::Required,
            Some("FieldValueDuplicate") => ErrorType::Duplicate,
            Some(other) => {
                return Err(error(
                    "reason",
                    BadValue::String(other.to_string()),
                    "supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\""
                        .into(),
                ));
            }
        };
        let transition = program.references().has_variable("oldSelf");
        Ok(Rule {
            rule,
            program,
            message: text("message").filter(|m| !m.trim().is_empty()),
            message_expression,
            reason,
            field_path: text("fieldPath").unwrap_or_default(),
            transition,
            shown,
        })
    }

    /// The rule checked on `value` at `path` (the node of schema `s`), `old` its stored value.
    pub fn check(&self, s: &Structural, value: &Value, old: Option<&Value>, path: &Path<'_>) -> Option<FieldError> {
        if self.transition && old.is_none() {
            return None;
        }
        let mut context = Context::with_env(ENV.clone());
        kubernetes_lists(&mut context);
        context.add_variable_from_value("self", to_cel(value, Some(s)));
        if let Some(old) = old {
            context.add_variable_from_value("oldSelf", to_cel(old, Some(s)));
        }
        let field = self.field(path);
        let detail = match self.program.execute(&context) {
            Ok(cel::Value::Bool(true)) => return None,
            Ok(cel::Value::Bool(false)) => self.failure(&context),
            outcome => {
                let why = match outcome {
                    Err(e) => e.to_string(),
                    _ => "the rule did not evaluate to a bool".to_string(),
                };
                return Some(FieldError {
                    kind: ErrorType::Invalid,
                    field,
                    bad_value: BadValue::String(s.shown_type().to_string()),
                    detail: format!("{why} evaluating rule: {}", self.rule.trim()),
                    origin: None,
                    stability: None,
                });
            }
        };
        // Kubernetes shows a scalar's value and omits an object's or a list's; a duplicate
        // shows only the value.
        let bad_value = match value {
            Value::Object(_) | Value::Array(_) => BadValue::Omitted,
            scalar => super::validate::shown(scalar),
        };
        let detail = if self.reason == ErrorType::Duplicate {
            String::new()
        } else {
            detail
        };
        Some(FieldError {
            kind: self.reason,
            field,
            bad_value,
            detail,
            origin: None,
            stability: None,
        })
    }

    /// The message of a failed rule: `messageExpression`'s when it yields a non-empty string,
    /// else `message`, else `failed rule: <rule>`.
    fn failure(&self, context: &Context) -> String {
        if let Some(expr) = &self.message_expression
            && let Ok(cel::Value::String(m)) = expr.execute(context)
            && !m.trim().is_empty()
        {
            return m.to_string();
        }
        match &self.message {
            Some(m) => m.clone(),
            None => format!("failed rule: {}", self.rule.trim()),
        }
    }

    /// The path an error of this rule names: the node's, with `fieldPath` below it.
    fn field(&self, path: &Path<'_>) -> String {
        let base = path.to_string();
        let base = if base == "<nil>" { String::new() } else { base };
        let below = self.field_path.as_str();
        if below.is_empty() {
            return if base.is_empty() { "<nil>".into() } else { base };
        }
        if base.is_empty() {
            below.trim_start_matches('.').to_string()
        } else {
            format!("{base}{below}")
        }
    }

    /// Whether the rule's estimated cost is over Kubernetes' limit, with how far over.
    pub fn over_budget(&self, s: &Structural) -> Option<f64> {
        let cost = cost(&self.program.expression().expr, &[("self", Bound::Node(s))]);
        (cost > COST_LIMIT).then_some(cost / COST_LIMIT)
    }
}

/// Kubernetes' list library beyond the crate's: `isSorted()`, `sum()`, `min()` and `max()`.
fn kubernetes_lists(context: &mut Context) {
    use cel::extractors::This;
    // A name the environment already declares is the environment's: the declaration error is
    // that, and leaves its overload in place.
    let _ = context.add_function("isSorted", |This(list): This<Arc<Vec<cel::Value>>>| {
        list.windows(2)
            .all(|w| w[0].partial_cmp(&w[1]).is_some_and(|o| o.is_le()))
    });
    let _ = context.add_function("sum", |This(list): This<Arc<Vec<cel::Value>>>| -> cel::Value {
        let mut ints = 0i64;
        let mut floats = 0f64;
        let mut any_float = false;
        for item in list.iter() {
            match item {
                cel::Value::Int(i) => ints = ints.saturating_add(*i),
                cel::Value::UInt(u) => ints = ints.saturating_add(*u as i64),
                cel::Value::Float(f) => {
                    floats += f;
                    any_float = true;
                }
                _ => {}
            }
        }
        if any_float {
            cel::Value::Float(floats + ints as f64)
        } else {
            cel::Value::Int(ints)
        }
    });
    // The least or greatest item; an empty list or items that do not compare are an error, as
    // in Kubernetes.
    fn extreme(list: &[cel::Value], keep: std::cmp::Ordering, name: &str) -> Result<cel::Value, cel::ExecutionError> {
        let mut items = list.iter();
        let first = items
            .next()
            .ok_or_else(|| cel::ExecutionError::function_error(name, "list is empty"))?;
        items.try_fold(first.clone(), |best, item| match item.partial_cmp(&best) {
            Some(o) if o == keep => Ok(item.clone()),
            Some(_) => Ok(best),
            None => Err(cel::ExecutionError::ValuesNotComparable(best, item.clone())),
        })
    }
    let _ = context.add_function("min", |This(list): This<Arc<Vec<cel::Value>>>| {
        extreme(&list, std::cmp::Ordering::Less, "min")
    });
    let _ = context.add_function("max", |This(list): This<Arc<Vec<cel::Value>>>| {
        extreme(&list, std::cmp::Ordering::Greater, "max")
    });
}

/// What an identifier in a rule stands for, to size comprehensions over it.
#[derive(Clone, Copy)]
enum Bound<'a> {
    /// A value of this schema.
    Node(&'a Structural),
    /// A value whose schema is not known (it hides an outer name).
    Unknown,
}

/// The estimated cost of `expr`: one per node, a comprehension its body times the most items
/// its range can hold (the schema's `maxItems`/`maxProperties`, else what 3 MiB holds).
fn cost(expr: &Expr, scope: &[(&str, Bound<'_>)]) -> f64 {
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
fn schema_of<'a>(expr: &Expr, scope: &[(&str, Bound<'a>)]) -> Option<&'a Structural> {
    match expr {
        Expr::Ident(name) => scope
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, bound)| match bound {
                Bound::Node(s) => Some(*s),
                Bound::Unknown => None,
            }),
        Expr::Select(s) => schema_of(&s.operand.expr, scope)?.field(&s.field),
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

/// Whether any node of `s` has rules.
pub fn has_rules(s: &Structural) -> bool {
    !s.rules.is_empty()
        || s.properties.values().any(has_rules)
        || s.items.as_deref().is_some_and(has_rules)
        || s.additional.as_deref().is_some_and(has_rules)
}

/// Runs the rules of every node of `v` (schema `s`, stored value `old`), top down. A rule that
/// does not read `oldSelf` is not run again on a value equal to the stored one (ratcheting).
pub(super) fn run(s: &Structural, v: &Value, old: Option<&Value>, path: &Path<'_>, out: &mut Vec<FieldError>) {
    if v.is_null() {
        return;
    }
    let unchanged = old == Some(v);
    for rule in &s.rules {
        if unchanged && !rule.transition {
            continue;
        }
        if let Some(e) = rule.check(s, v, old, path) {
            out.push(e);
        }
    }
    match v {
        Value::Object(map) => {
            for (key, child) in map {
                let was = old.and_then(|o| o.get(key));
                if let Some(field) = s.properties.get(key) {
                    run(field, child, was, &path.child(key), out);
                } else if let Some(additional) = &s.additional {
                    run(additional, child, was, &path.key(key), out);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = &s.items {
                for (i, child) in items.iter().enumerate() {
                    let was = old.and_then(|o| correlate(s, o, child));
                    run(item, child, was, &path.index(i), out);
                }
            }
        }
        _ => {}
    }
}

/// The value of the stored version of a list item under a `map` list: the old item with the
/// same keys (the only list items Kubernetes correlates for ratcheting and `oldSelf`).
pub(super) fn correlate<'a>(list: &Structural, old: &'a Value, item: &Value) -> Option<&'a Value> {
    if list.list_type != "map" || list.list_map_keys.is_empty() {
        return None;
    }
    let keys = |v: &Value| -> Vec<Option<Value>> { list.list_map_keys.iter().map(|k| v.get(k).cloned()).collect() };
    let wanted = keys(item);
    old.as_array()?.iter().find(|o| keys(o) == wanted)
}

/// A JSON value as CEL sees it under schema `s`: integers as `int`, `number` fields as `double`
/// even when written without a fraction, objects as maps.
fn to_cel(v: &Value, s: Option<&Structural>) -> cel::Value {
    match v {
        Value::Null => cel::Value::Null,
        Value::Bool(b) => cel::Value::Bool(*b),
        Value::Number(n) => {
            if s.is_some_and(|s| s.type_ == "number") {
                cel::Value::Float(n.as_f64().unwrap_or_default())
            } else if let Some(i) = n.as_i64() {
                cel::Value::Int(i)
            } else if let Some(u) = n.as_u64() {
                cel::Value::UInt(u)
            } else {
                cel::Value::Float(n.as_f64().unwrap_or_default())
            }
        }
        Value::String(t) => cel::Value::String(Arc::new(t.clone())),
        Value::Array(items) => {
            let item = s.and_then(|s| s.items.as_deref());
            cel::Value::List(Arc::new(items.iter().map(|i| to_cel(i, item)).collect()))
        }
        Value::Object(map) => {
            let entries: HashMap<Key, cel::Value> = map
                .iter()
                .map(|(k, v)| (Key::String(Arc::new(k.clone())), to_cel(v, s.and_then(|s| s.field(k)))))
                .collect();
            cel::Value::Map(Map { map: Arc::new(entries) })
        }
    }
}

mod check;
#[cfg(test)]
mod tests;

/// `text` as a JSON string.
fn json_text(text: &str) -> String {
    Value::String(text.to_string()).to_string()
}
