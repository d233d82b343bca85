//! `deserialize_with` for fields that hold Quantities (`Quantity`, `Option<Quantity>`, a
//! `ResourceList`, a list of them): each is read in its canonical form, from a JSON string or a
//! bare number (Go's `UnmarshalJSON` takes both), and a text that is no quantity is an error of
//! the decode, as in Go.
//!
//! ```
//! use std::collections::BTreeMap;
//! use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
//! #[derive(serde::Deserialize)]
//! struct Resources {
//!     #[serde(default, deserialize_with = "kube_apimachinery::quantity::deserialize")]
//!     limits: Option<BTreeMap<String, Quantity>>,
//! }
//! let r: Resources = serde_json::from_str(r#"{"limits": {"cpu": "0.5", "memory": 1e9}}"#).unwrap();
//! let limits = r.limits.unwrap();
//! assert_eq!(limits["cpu"].0, "500m");
//! assert_eq!(limits["memory"].0, "1G");
//! ```

use std::collections::BTreeMap;
use std::fmt;

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, Visitor};

/// A type whose Quantities are read in canonical form.
pub trait Quantities: Sized {
    /// Reads a value, every Quantity in it canonical.
    fn deserialize_canonical<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
}

/// `deserialize_with` for a field of a type that holds Quantities.
pub fn deserialize<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Quantities,
{
    T::deserialize_canonical(deserializer)
}

/// One value read through [`Quantities`], for the containers' own decoders.
struct Canonical<T>(T);

impl<'de, T: Quantities> Deserialize<'de> for Canonical<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize_canonical(deserializer).map(Canonical)
    }
}

impl Quantities for Quantity {
    fn deserialize_canonical<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // As k8s-openapi's Quantity asks, so that a deserializer that fills values by type (the
        // testing module's) knows it is one.
        deserializer.deserialize_newtype_struct("Quantity", QuantityVisitor)
    }
}

struct QuantityVisitor;

impl QuantityVisitor {
    fn read<E: de::Error>(text: &str) -> Result<Quantity, E> {
        super::canonical(text.trim()).map(Quantity).map_err(E::custom)
    }
}

impl<'de> Visitor<'de> for QuantityVisitor {
    type Value = Quantity;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a quantity (a string such as \"500m\" or \"1Gi\", or a number)")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Quantity, D::Error> {
        deserializer.deserialize_any(QuantityVisitor)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Quantity, E> {
        Self::read(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Quantity, E> {
        Self::read(&v.to_string())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Quantity, E> {
        Self::read(&v.to_string())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Quantity, E> {
        Self::read(&v.to_string())
    }
}

impl<T: Quantities> Quantities for Option<T> {
    fn deserialize_canonical<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Option::<Canonical<T>>::deserialize(deserializer)?.map(|c| c.0))
    }
}

impl<T: Quantities> Quantities for Vec<T> {
    fn deserialize_canonical<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(Vec::<Canonical<T>>::deserialize(deserializer)?
            .into_iter()
            .map(|c| c.0)
            .collect())
    }
}

impl<K, T> Quantities for BTreeMap<K, T>
where
    K: Ord + DeserializeOwned,
    T: Quantities,
{
    fn deserialize_canonical<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<K, Canonical<T>>::deserialize(deserializer)?;
        Ok(map.into_iter().map(|(k, c)| (k, c.0)).collect())
    }
}
