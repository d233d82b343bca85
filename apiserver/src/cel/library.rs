//! Kubernetes' CEL libraries beyond what the `cel` crate ships: lists (`isSorted`, `sum`, `min`,
//! `max`), regex (`find`, `findAll`), sets, and format (`format.dns1123Label().validate(s)`),
//! with the network (`ip`, `cidr`, `url`) and quantity libraries from their own files. They are
//! registered once on a root context every rule's evaluation scope descends from.

use std::sync::Arc;

use cel::extractors::{Arguments, This};
use cel::objects::{Opaque, OptionalValue};
use cel::{Context, ExecutionError, FunctionContext, Value};
use kube_apimachinery::validation::content;

use super::format::fits as format_fits;
use super::{add, fail, network, opaque};

/// Kubernetes' list library beyond the crate's: `isSorted()`, `sum()`, `min()` and `max()`.
pub(super) fn lists(context: &mut Context<'static, 'static>) {
    add(context, "isSorted", |This(list): This<Arc<Vec<Value>>>| {
        list.windows(2)
            .all(|w| w[0].partial_cmp(&w[1]).is_some_and(|o| o.is_le()))
    });
    add(context, "sum", |This(list): This<Arc<Vec<Value>>>| -> Value {
        let mut ints = 0i64;
        let mut floats = 0f64;
        let mut any_float = false;
        for item in list.iter() {
            match item {
                Value::Int(i) => ints = ints.saturating_add(*i),
                Value::UInt(u) => ints = ints.saturating_add(*u as i64),
                Value::Float(f) => {
                    floats += f;
                    any_float = true;
                }
                _ => {}
            }
        }
        if any_float {
            Value::Float(floats + ints as f64)
        } else {
            Value::Int(ints)
        }
    });
    // The least or greatest item; an empty list or items that do not compare are an error, as
    // in Kubernetes.
    fn extreme(list: &[Value], keep: std::cmp::Ordering, name: &str) -> Result<Value, ExecutionError> {
        let mut items = list.iter();
        let first = items
            .next()
            .ok_or_else(|| ExecutionError::function_error(name, "list is empty"))?;
        items.try_fold(first.clone(), |best, item| match item.partial_cmp(&best) {
            Some(o) if o == keep => Ok(item.clone()),
            Some(_) => Ok(best),
            None => Err(ExecutionError::ValuesNotComparable(best, item.clone())),
        })
    }
    add(context, "min", |This(list): This<Arc<Vec<Value>>>| {
        extreme(&list, std::cmp::Ordering::Less, "min")
    });
    add(context, "max", |This(list): This<Arc<Vec<Value>>>| {
        extreme(&list, std::cmp::Ordering::Greater, "max")
    });
}

/// The regex library: `s.find(re)` is the first match or `""`, `s.findAll(re)` every match and
/// `s.findAll(re, n)` at most `n` (all when `n` is negative).
pub(super) fn regex(context: &mut Context<'static, 'static>) {
    fn compile(ftx: &FunctionContext, pattern: &str) -> Result<regex::Regex, ExecutionError> {
        regex::Regex::new(pattern).map_err(|e| fail(ftx, format!("error parsing regexp: {e}")))
    }
    add(
        context,
        "find",
        |ftx: &FunctionContext, This(s): This<Arc<String>>, pattern: Arc<String>| -> Result<Value, ExecutionError> {
            let re = compile(ftx, &pattern)?;
            Ok(Value::String(Arc::new(
                re.find(&s).map(|m| m.as_str().to_string()).unwrap_or_default(),
            )))
        },
    );
    add(
        context,
        "findAll",
        |ftx: &FunctionContext,
         This(s): This<Arc<String>>,
         Arguments(args): Arguments|
         -> Result<Value, ExecutionError> {
            let pattern = match args.first() {
                Some(Value::String(p)) => p.clone(),
                _ => return Err(fail(ftx, "findAll needs a regular expression")),
            };
            let limit = match args.get(1) {
                Some(Value::Int(n)) if *n >= 0 => *n as usize,
                Some(Value::Int(_)) | None => usize::MAX,
                Some(_) => return Err(fail(ftx, "findAll's limit is an int")),
            };
            let re = compile(ftx, &pattern)?;
            let found = re
                .find_iter(&s)
                .take(limit)
                .map(|m| Value::String(Arc::new(m.as_str().to_string())))
                .collect();
            Ok(Value::List(Arc::new(found)))
        },
    );
}

/// The sets library over lists: `sets.contains(a, b)` (every item of `b` is in `a`),
/// `sets.equivalent(a, b)` and `sets.intersects(a, b)`.
pub(super) fn sets(context: &mut Context<'static, 'static>) {
    fn within(a: &[Value], b: &[Value]) -> bool {
        b.iter().all(|item| a.contains(item))
    }
    add(context, "sets.contains", |a: Arc<Vec<Value>>, b: Arc<Vec<Value>>| {
        within(&a, &b)
    });
    add(context, "sets.equivalent", |a: Arc<Vec<Value>>, b: Arc<Vec<Value>>| {
        within(&a, &b) && within(&b, &a)
    });
    add(context, "sets.intersects", |a: Arc<Vec<Value>>, b: Arc<Vec<Value>>| {
        b.iter().any(|item| a.contains(item))
    });
}

/// A named format of the format library.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Format(&'static str);

impl Opaque for Format {
    fn runtime_type_name(&self) -> &str {
        "kubernetes.NamedFormat"
    }
}

/// The format library's formats, by name.
const FORMATS: &[&str] = &[
    "dns1123Label",
    "dns1123Subdomain",
    "dns1035Label",
    "qualifiedName",
    "dns1123LabelPrefix",
    "dns1123SubdomainPrefix",
    "dns1035LabelPrefix",
    "labelValue",
    "uri",
    "uuid",
    "byte",
    "date",
    "datetime",
];

impl Format {
    /// The errors `s` has in this format; none when it is valid.
    fn errors(&self, s: &str) -> Vec<String> {
        // A prefix (`generateName`) may end in a dash the generated suffix follows.
        let prefix = |s: &str| match s.strip_suffix('-') {
            Some(head) => format!("{head}a"),
            None => s.to_string(),
        };
        match self.0 {
            "dns1123Label" => content::dns1123_label(s),
            "dns1123Subdomain" => content::dns1123_subdomain(s),
            "dns1035Label" => content::dns1035_label(s),
            "qualifiedName" => content::qualified_name(s),
            "dns1123LabelPrefix" => content::dns1123_label(&prefix(s)),
            "dns1123SubdomainPrefix" => content::dns1123_subdomain(&prefix(s)),
            "dns1035LabelPrefix" => content::dns1035_label(&prefix(s)),
            "labelValue" => content::label_value(s),
            "uri" => network::request_uri(s).err().into_iter().collect(),
            "uuid" => {
                if content::uuid(s).is_empty() {
                    Vec::new()
                } else {
                    vec!["does not match the UUID format".into()]
                }
            }
            "byte" => {
                use base64::Engine;
                match base64::engine::general_purpose::STANDARD.decode(s) {
                    Ok(_) => Vec::new(),
                    Err(e) => vec![e.to_string()],
                }
            }
            "date" if !format_fits("date", s) => {
                vec![format!(
                    "parsing time {s:?} as \"2006-01-02\": cannot parse {s:?} as a date"
                )]
            }
            "datetime" if !format_fits("date-time", s) => {
                vec![format!("parsing time {s:?} as an RFC 3339 date-time failed")]
            }
            _ => Vec::new(),
        }
    }
}

/// The format library: `format.<name>()` and `format.named(name)` (an optional), and
/// `<format>.validate(s)`, an optional list of the errors, empty when `s` is valid.
pub(super) fn formats(context: &mut Context<'static, 'static>) {
    for &name in FORMATS {
        add(context, &format!("format.{name}"), move || {
            Value::Opaque(Arc::new(Format(name)))
        });
    }
    add(context, "format.named", |name: Arc<String>| {
        let found = FORMATS.iter().find(|f| **f == name.as_str());
        let optional = match found {
            Some(&f) => OptionalValue::of(Value::Opaque(Arc::new(Format(f)))),
            None => OptionalValue::none(),
        };
        Value::Opaque(Arc::new(optional))
    });
    add(
        context,
        "validate",
        |ftx: &FunctionContext, This(format): This<Value>, s: Arc<String>| -> Result<Value, ExecutionError> {
            let format = opaque::<Format>(&format).ok_or_else(|| fail(ftx, "validate applies to a format"))?;
            let errors = format.errors(&s);
            let optional = if errors.is_empty() {
                OptionalValue::none()
            } else {
                let list = errors.into_iter().map(|e| Value::String(Arc::new(e))).collect();
                OptionalValue::of(Value::List(Arc::new(list)))
            };
            Ok(Value::Opaque(Arc::new(optional)))
        },
    );
}
