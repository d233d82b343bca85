//! Random values of any `Deserialize` type, the Rust reading of Go's `sigs.k8s.io/randfill` for the
//! round-trip and deep-copy fuzz tests of generated API types.
//!
//! Go's randfill walks a value with reflection. Rust has no reflection, but every API type already
//! describes its shape to serde, so [`fill`] drives the type's own `Deserialize` impl with a
//! `serde::Deserializer` that answers every request with random data of the requested shape: a
//! `deserialize_struct` gets a map holding every field it names, a `deserialize_enum` gets a random
//! variant, an option is `None` with probability [`FillOptions::none_chance`], and so on.
//!
//! ```
//! use k8s_openapi::api::apps::v1::Deployment;
//!
//! let deployment: Deployment = kube_apimachinery::testing::fill(7)?;
//! assert_eq!(kube_apimachinery::testing::fill::<Deployment>(7)?, deployment);
//! # Ok::<(), kube_apimachinery::testing::FillError>(())
//! ```
//!
//! Values that a random string would not satisfy are recognised by the name a `Deserialize` impl passes
//! to serde or by its visitor's `expecting` text, much as apimachinery's fuzzer registers custom functions:
//! k8s-openapi's `Time` gets an RFC 3339 timestamp at whole seconds, `MicroTime` one at microseconds,
//! `Quantity` a canonical quantity, `ByteString` base64 text and `IntOrString` an int or a string. Numbers
//! stay within ±2^53, floats are finite and nothing directly inside `Some` serializes as null, so every
//! filled value survives a JSON round trip.
//!
//! A type that rejects a random value is filled again from a seed derived from the first, up to 32
//! times, before [`fill`] gives up with [`FillError::Rejected`]. Each failed attempt teaches the next one
//! what serde's errors name: a missing field, a field sent twice under an alias, or the one string a
//! field accepts. k8s-openapi's kinds accept only their own `apiVersion` and `kind`, so filling one takes
//! three attempts, the first two learning those strings.
//!
//! Limits, each a consequence of what serde lets a deserializer see:
//!
//! - A serde-derived struct with a `#[serde(flatten)]` field asks for a map and names none of its fields.
//!   The filler answers such a map (its visitor expects "struct …") with the top-level field names of the
//!   Kubernetes kinds plus any field serde reported missing in an earlier attempt. Fields named neither
//!   way keep their defaults, and a flattened `Option<TypeMeta>` stays `None`, which is what Go's fuzzer
//!   does too: apimachinery blanks `TypeMeta` because apiVersion and kind must be empty in memory.
//! - Untagged, internally tagged and adjacently tagged enums get a random JSON-like value or a random
//!   tag, so they fill only when that happens to fit; serde's default, externally tagged enums always fill.
//! - k8s-openapi reads even required fields through options, so at `max_depth` its structs come out with
//!   default fields; raise [`FillOptions::max_depth`] to reach deep leaves such as a probe's port.

mod fill;
mod hints;
mod learn;
#[cfg(test)]
mod tests;

use fill::Filler;
use learn::Context;
use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::de::DeserializeOwned;
use thiserror::Error;

/// How many seeds one fill tries before it reports the type as unfillable.
const ATTEMPTS: usize = 32;

/// How random values are shaped: how deep they nest, how long collections get, how often options are `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct FillOptions {
    /// The nesting depth (structs, enums, sequences and maps) at which collections become empty and
    /// options `None`, so recursive types end. Options themselves add no depth: Kubernetes wraps almost
    /// every field in one, and counting them would halve how deep an object gets filled.
    pub max_depth: usize,
    /// The longest sequence or map; lengths are uniform in `0..=max_len`.
    pub max_len: usize,
    /// The probability, between 0 and 1, that an option shallower than `max_depth` is `None`.
    pub none_chance: f64,
}

impl Default for FillOptions {
    fn default() -> Self {
        Self {
            max_depth: 6,
            max_len: 3,
            none_chance: 0.3,
        }
    }
}

/// Why no value could be filled.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum FillError {
    /// [`FillOptions::none_chance`] is not a probability.
    #[error("none_chance must be between 0 and 1, got {0}")]
    InvalidNoneChance(f64),
    /// The type's `Deserialize` impl rejected the random value of every attempt.
    #[error("{type_name} rejected all {attempts} random values; the last error: {last}")]
    Rejected {
        /// The name of the type being filled.
        type_name: &'static str,
        /// How many random values were tried.
        attempts: usize,
        /// The error of the last attempt.
        last: String,
    },
}

/// A random value of `T` with the default [`FillOptions`]; the same seed always gives the same value.
pub fn fill<T: DeserializeOwned>(seed: u64) -> Result<T, FillError> {
    fill_with(seed, &FillOptions::default())
}

/// A random value of `T`, deterministic for `(seed, options)`.
///
/// When `T`'s `Deserialize` impl rejects a value, the fill starts over from a seed derived from `seed`,
/// remembering what the error named (a missing field, a duplicated one, the one string a field accepts)
/// so the next attempt can supply, drop or send it.
pub fn fill_with<T: DeserializeOwned>(seed: u64, options: &FillOptions) -> Result<T, FillError> {
    // `contains` is false for NaN as well, and rand panics on any of these, so reject them up front.
    if !(0.0..=1.0).contains(&options.none_chance) {
        return Err(FillError::InvalidNoneChance(options.none_chance));
    }
    let mut cx = Context::new(options.clone());
    let mut last = String::new();
    for attempt in 0..ATTEMPTS {
        let mut rng = StdRng::seed_from_u64(attempt_seed(seed, attempt));
        match T::deserialize(Filler::new(&mut rng, &cx)) {
            Ok(value) => return Ok(value),
            Err(err) => {
                cx.learn(&err);
                last = err.to_string();
            }
        }
    }
    Err(FillError::Rejected {
        type_name: std::any::type_name::<T>(),
        attempts: ATTEMPTS,
        last,
    })
}

/// The seed of an attempt: the first uses `seed` itself and later ones step by the 64-bit golden ratio,
/// which spreads them across the seed space.
fn attempt_seed(seed: u64, attempt: usize) -> u64 {
    seed.wrapping_add((attempt as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}
