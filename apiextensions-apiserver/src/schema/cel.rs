//! The `x-kubernetes-validations` rules of a structural schema, evaluated with the `cel` crate as
//! apiextensions-apiserver evaluates them with cel-go: `self` is the value at the rule's node,
//! `oldSelf` the stored one (a rule that reads it runs only on update, where the value has an
//! old counterpart), and a rule's estimated cost is bounded when the CRD is written, with
//! Kubernetes' budget, message and hint.

use std::collections::HashMap;
use std::sync::Arc;

use cel::objects::{Key, Map};
use cel::{Context, Program};
use kube_apimachinery::validation::{BadValue, ErrorType, FieldError, Path};
use serde_json::Value;

use self::cost::{Bound, COST_LIMIT, PER_CALL_LIMIT, RUNTIME_BUDGET, cost, schema_of};
use super::{SchemaError, Structural};

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
        let program = kube_generic_apiserver::cel::ENV
            .compile(&rule)
            .map_err(|e| error("rule", shown.clone(), format!("compilation failed: {e}")))?;
        let message_expression = match text("messageExpression") {
            Some(m) => Some(kube_generic_apiserver::cel::ENV.compile(&m).map_err(|e| {
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
        let mut context = kube_generic_apiserver::cel::LIBRARY.new_inner_scope();
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
                    // A library function's error is its message alone, as cel-go's is.
                    Err(cel::ExecutionError::FunctionError { message, .. }) => message,
                    Err(e) => e.to_string(),
                    _ => "the rule did not evaluate to a bool".to_string(),
                };
                return Some(FieldError {
                    kind: ErrorType::Invalid,
                    field,
                    bad_value: BadValue::String(s.shown_type().to_string()),
                    detail: format!("{why} evaluating rule: {}", self.error_string()),
                    origin: None,
                    stability: None,
                });
            }
        };
        // Kubernetes shows a scalar's value and omits an object's or a list's; a duplicate
        // shows only the value.
        let bad_value = match value {
            Value::Object(_) | Value::Array(_) => BadValue::Omitted,
            scalar => super::shown(scalar),
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
            return m.trim().to_string();
        }
        match &self.message {
            Some(m) => m.trim().to_string(),
            None => format!("failed rule: {}", self.rule.trim()),
        }
    }

    /// How an error names the rule: its message when it has one, else its text (Go's
    /// `ruleErrorString`).
    fn error_string(&self) -> &str {
        match &self.message {
            Some(m) => m.trim(),
            None => self.rule.trim(),
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

    /// The cost of one evaluation on `value` (stored value `old`), counted up to `limit`.
    fn actual_cost(&self, value: &Value, old: Option<&Value>, limit: f64) -> f64 {
        let scope = [("self", Some(value)), ("oldSelf", old)];
        cost::actual(&self.program.expression().expr, &scope, limit)
    }

    /// Whether the rule's estimated cost is over Kubernetes' limit, with how far over.
    pub fn over_budget(&self, s: &Structural) -> Option<f64> {
        let cost = cost(&self.program.expression().expr, &[("self", Bound::Node(s))]);
        (cost > COST_LIMIT).then_some(cost / COST_LIMIT)
    }
}

/// Whether any node of `s` has rules.
pub fn has_rules(s: &Structural) -> bool {
    !s.rules.is_empty()
        || s.properties.values().any(has_rules)
        || s.items.as_deref().is_some_and(has_rules)
        || s.additional.as_deref().is_some_and(has_rules)
}

/// Runs the rules of every node of `v` (schema `s`, stored value `old`), top down, within
/// Kubernetes' cost budget for one object. A rule that does not read `oldSelf` is not run
/// again on a value equal to the stored one (ratcheting).
pub(super) fn run(s: &Structural, v: &Value, old: Option<&Value>, path: &Path<'_>, out: &mut Vec<FieldError>) {
    let mut budget = RUNTIME_BUDGET;
    run_within(s, v, old, path, out, &mut budget);
}

/// `run` with what is left of the budget; a negative budget means validation has stopped.
fn run_within(
    s: &Structural,
    v: &Value,
    old: Option<&Value>,
    path: &Path<'_>,
    out: &mut Vec<FieldError>,
    budget: &mut f64,
) {
    if v.is_null() {
        return;
    }
    let unchanged = old == Some(v);
    for rule in &s.rules {
        if unchanged && !rule.transition || rule.transition && old.is_none() {
            continue;
        }
        let stop = |out: &mut Vec<FieldError>, detail: String, budget: &mut f64| {
            out.push(FieldError::invalid(
                path,
                BadValue::String(s.shown_type().to_string()),
                detail,
            ));
            *budget = -1.0;
        };
        if *budget <= 0.0 {
            return stop(out, OUT_OF_BUDGET.into(), budget);
        }
        let cost = rule.actual_cost(v, old, PER_CALL_LIMIT.min(*budget));
        if cost > PER_CALL_LIMIT {
            let detail = format!(
                "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: {}",
                rule.error_string()
            );
            return stop(out, detail, budget);
        }
        if cost > *budget {
            return stop(out, OUT_OF_BUDGET.into(), budget);
        }
        *budget -= cost;
        if let Some(e) = rule.check(s, v, old, path) {
            out.push(e);
        }
    }
    match v {
        Value::Object(map) => {
            for (key, child) in map {
                let was = old.and_then(|o| o.get(key));
                if let Some(field) = s.properties.get(key) {
                    run_within(field, child, was, &path.child(key), out, budget);
                } else if let Some(additional) = &s.additional {
                    run_within(additional, child, was, &path.key(key), out, budget);
                }
                if *budget < 0.0 {
                    return;
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = &s.items {
                for (i, child) in items.iter().enumerate() {
                    let was = old.and_then(|o| correlate(s, o, child));
                    run_within(item, child, was, &path.index(i), out, budget);
                    if *budget < 0.0 {
                        return;
                    }
                }
            }
        }
        _ => {}
    }
}

/// Kubernetes' message when an object's rules have spent the budget.
const OUT_OF_BUDGET: &str =
    "validation failed due to running out of cost budget, no further validation rules will be run";

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
            // An object's properties are CEL fields, named as `escape` names them; a map's keys
            // (`additionalProperties`) are its own.
            let object = s.is_some_and(|s| !s.properties.is_empty());
            let entries: HashMap<Key, cel::Value> = map
                .iter()
                .map(|(k, v)| {
                    let name = if object {
                        escape(k).unwrap_or_else(|| k.clone())
                    } else {
                        k.clone()
                    };
                    (Key::String(Arc::new(name)), to_cel(v, s.and_then(|s| s.field(k))))
                })
                .collect();
            cel::Value::Map(Map { map: Arc::new(entries) })
        }
    }
}

/// A property's name as a rule selects it (k8s.io/apiserver's `cel.Escape`): a CEL keyword as
/// `__namespace__`, `__`, `.`, `-` and `/` spelled out (`__underscores__`, `__dot__`, `__dash__`,
/// `__slash__`); `None` for a name no rule can select (empty, a leading digit, another
/// character).
pub(super) fn escape(name: &str) -> Option<String> {
    const RESERVED: &[&str] = &[
        "true",
        "false",
        "null",
        "in",
        "as",
        "break",
        "const",
        "continue",
        "else",
        "for",
        "function",
        "if",
        "import",
        "let",
        "loop",
        "package",
        "namespace",
        "return",
        "var",
        "void",
        "while",
    ];
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if RESERVED.contains(&name) {
        return Some(format!("__{name}__"));
    }
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if let Some(tail) = rest.strip_prefix("__") {
            out.push_str("__underscores__");
            rest = tail;
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c if c.is_ascii_alphanumeric() || c == '_' => out.push(c),
            _ => return None,
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

/// The schema of the field a rule selects as `selected` (an escaped property name) from `s`.
pub(super) fn selected_field<'a>(s: &'a Structural, selected: &str) -> Option<&'a Structural> {
    s.properties
        .iter()
        .find(|(name, _)| escape(name).as_deref() == Some(selected))
        .map(|(_, p)| p)
        .or(s.additional.as_deref())
}

mod check;
mod cost;
#[cfg(test)]
mod library_tests;
#[cfg(test)]
mod tests;

/// `text` as a JSON string.
fn json_text(text: &str) -> String {
    Value::String(text.to_string()).to_string()
}
