//! Interned names for mappings made at run time: a `RestMapping` holds `&'static` names (the
//! Scheme's are compiled in), so a CustomResourceDefinition's names are interned, each distinct
//! one kept once for the life of the process. Updating a CRD a thousand times with the same names
//! costs nothing; only new names cost memory, as Go's string interning does.

use std::collections::HashMap;
use std::fmt::Debug;
use std::sync::{Mutex, OnceLock};

use kube_apimachinery::{PrinterColumn, SubresourceMapping};

/// The one `&'static str` equal to `s`.
pub fn str(s: &str) -> &'static str {
    static NAMES: OnceLock<Mutex<HashMap<String, &'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(name) = names.get(s) {
        return name;
    }
    let name: &'static str = Box::leak(s.to_string().into_boxed_str());
    names.insert(s.to_string(), name);
    name
}

/// A slice kept once per distinct content (compared by its debug form, which for these plain
/// structs of names is their content).
fn slice<T: Debug + Clone + Send + Sync + 'static>(
    cache: &'static OnceLock<Mutex<HashMap<String, &'static [T]>>>,
    items: Vec<T>,
) -> &'static [T] {
    if items.is_empty() {
        return &[];
    }
    let key = format!("{items:?}");
    let mut kept = cache
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    kept.entry(key).or_insert_with(|| Box::leak(items.into_boxed_slice()))
}

/// Interned names (short names, categories).
pub fn names(items: Vec<&'static str>) -> &'static [&'static str] {
    static CACHE: OnceLock<Mutex<HashMap<String, &'static [&'static str]>>> = OnceLock::new();
    slice(&CACHE, items)
}

/// Interned subresources.
pub fn subresources(items: Vec<SubresourceMapping>) -> &'static [SubresourceMapping] {
    static CACHE: OnceLock<Mutex<HashMap<String, &'static [SubresourceMapping]>>> = OnceLock::new();
    slice(&CACHE, items)
}

/// Interned printer columns.
pub fn columns(items: Vec<PrinterColumn>) -> &'static [PrinterColumn] {
    static CACHE: OnceLock<Mutex<HashMap<String, &'static [PrinterColumn]>>> = OnceLock::new();
    slice(&CACHE, items)
}

#[cfg(test)]
mod tests {
    #[test]
    fn equal_names_are_one() {
        let a = super::str(&String::from("foos"));
        let b = super::str("foos");
        assert!(std::ptr::eq(a, b));
        let x = super::names(vec![a, "fo"]);
        let y = super::names(vec![b, super::str("fo")]);
        assert!(std::ptr::eq(x, y));
    }
}
