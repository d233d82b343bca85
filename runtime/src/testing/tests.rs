//! Tests of [`fill`](super::fill): determinism, Kubernetes objects that survive a JSON round trip, the
//! formatted leaf types, recursion, flattened structs, enums and the shape options.

use super::{FillError, FillOptions, fill, fill_with};
use k8s_openapi::ByteString;
use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::coordination::v1::Lease;
use k8s_openapi::api::core::v1::{ConfigMap, Pod, Secret};
use k8s_openapi::api::events::v1::Event;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
// k8s-openapi re-exports serde_json, which spares runtime a dev-dependency.
use k8s_openapi::serde_json::{self, Value};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;

/// Fills a `T` from `seed`, failing the test with the fill error if there is one.
fn must_fill<T: DeserializeOwned>(seed: u64) -> T {
    fill(seed).unwrap_or_else(|err| panic!("seed {seed}: {err}"))
}

/// Asserts that `value` comes back unchanged from JSON, both through `serde_json::Value` and as text.
fn assert_round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(value: &T, seed: u64) {
    let json = serde_json::to_value(value).expect("filled values serialize");
    let back: T = serde_json::from_value(json).unwrap_or_else(|err| panic!("seed {seed}: {err}"));
    assert_eq!(
        &back, value,
        "seed {seed}: changed by a round trip through serde_json::Value"
    );
    let text = serde_json::to_string(value).expect("filled values serialize");
    let back: T = serde_json::from_str(&text).unwrap_or_else(|err| panic!("seed {seed}: {err}\n{text}"));
    assert_eq!(&back, value, "seed {seed}: changed by a round trip through JSON text");
}

/// Fills `T` with `options` for every seed in `seeds`, asserts the round trip and returns the values.
fn fill_all_with<T: Serialize + DeserializeOwned + PartialEq + Debug>(
    options: &FillOptions,
    seeds: std::ops::Range<u64>,
) -> Vec<T> {
    seeds
        .map(|seed| {
            let value = fill_with::<T>(seed, options).unwrap_or_else(|err| panic!("seed {seed}: {err}"));
            assert_round_trip(&value, seed);
            value
        })
        .collect()
}

/// [`fill_all_with`] with the default options.
fn fill_all<T: Serialize + DeserializeOwned + PartialEq + Debug>(seeds: std::ops::Range<u64>) -> Vec<T> {
    fill_all_with(&FillOptions::default(), seeds)
}

#[test]
fn same_seed_gives_the_same_value() {
    for seed in [0, 1, 42, u64::MAX] {
        let first = serde_json::to_value(must_fill::<Pod>(seed)).expect("serializes");
        let second = serde_json::to_value(must_fill::<Pod>(seed)).expect("serializes");
        assert_eq!(first, second, "seed {seed}");
    }
}

#[test]
fn different_seeds_give_different_values() {
    let values: BTreeSet<String> = (0..20)
        .map(|seed| serde_json::to_string(&must_fill::<Pod>(seed)).expect("serializes"))
        .collect();
    assert_eq!(values.len(), 20);
}

#[test]
fn pods_fill_and_survive_a_json_round_trip() {
    let pods: Vec<Pod> = fill_all(0..200);
    // The formatted leaf types must actually be reached for the round trip to check them.
    let created = pods.iter().filter(|p| p.metadata.creation_timestamp.is_some()).count();
    let limits = pods
        .iter()
        .filter_map(|p| p.spec.as_ref())
        .flat_map(|s| &s.containers)
        .filter_map(|c| c.resources.as_ref()?.limits.as_ref())
        .filter(|limits| !limits.is_empty());
    assert!(created > 100, "{created} of 200 pods have a creationTimestamp");
    assert!(limits.count() > 10, "too few containers have resource limits");
}

#[test]
fn deep_pods_survive_a_json_round_trip() {
    // A probe's port sits six levels down (the pod, its spec, the containers, a container, the probe,
    // its httpGet), at the default depth limit, where k8s-openapi reads even required fields as absent
    // options and defaults them.
    let options = FillOptions {
        max_depth: 10,
        ..FillOptions::default()
    };
    let pods: Vec<Pod> = fill_all_with(&options, 0..30);
    let ports: Vec<&IntOrString> = pods
        .iter()
        .filter_map(|p| p.spec.as_ref())
        .flat_map(|s| &s.containers)
        .filter_map(|c| c.liveness_probe.as_ref()?.http_get.as_ref())
        .map(|http_get| &http_get.port)
        .collect();
    assert!(
        ports.iter().any(|p| matches!(p, IntOrString::Int(1..))),
        "no probe has an int port"
    );
    assert!(
        ports.iter().any(|p| matches!(p, IntOrString::String(_))),
        "no probe has a named port"
    );
}

#[test]
fn deployments_fill_and_survive_a_json_round_trip() {
    let deployments: Vec<Deployment> = fill_all(0..200);
    let surges: Vec<&IntOrString> = deployments
        .iter()
        .filter_map(|d| d.spec.strategy.as_ref()?.rolling_update.as_ref()?.max_surge.as_ref())
        .collect();
    assert!(
        surges.iter().any(|s| matches!(s, IntOrString::Int(_))),
        "no int maxSurge"
    );
    assert!(
        surges.iter().any(|s| matches!(s, IntOrString::String(_))),
        "no string maxSurge"
    );
}

#[test]
fn kinds_with_byte_strings_and_micro_times_survive_a_json_round_trip() {
    let secrets: Vec<Secret> = fill_all(0..50);
    let config_maps: Vec<ConfigMap> = fill_all(0..50);
    let leases: Vec<Lease> = fill_all(0..50);
    let events: Vec<Event> = fill_all(0..50);
    assert!(
        secrets
            .iter()
            .filter_map(|s| s.data.as_ref())
            .flat_map(|d| d.values())
            .any(|b| !b.0.is_empty())
    );
    assert!(
        config_maps
            .iter()
            .any(|c| c.binary_data.as_ref().is_some_and(|d| !d.is_empty()))
    );
    assert!(
        leases
            .iter()
            .any(|l| l.spec.as_ref().is_some_and(|s| s.acquire_time.is_some()))
    );
    assert!(events.iter().any(|e| e.event_time.is_some()));
}

#[test]
fn formatted_leaf_types_get_valid_values() {
    let times: Vec<Time> = fill_all(0..200);
    let micro_times: Vec<MicroTime> = fill_all(0..200);
    let quantities: Vec<Quantity> = fill_all(0..200);
    let byte_strings: Vec<ByteString> = fill_all(0..200);
    let int_or_strings: Vec<IntOrString> = fill_all(0..200);
    let _: Vec<Value> = fill_all(0..200);
    assert!(
        times.iter().all(|t| t.0.subsec_nanosecond() == 0),
        "Time carries whole seconds"
    );
    assert!(
        micro_times.iter().all(|t| t.0.subsec_nanosecond() % 1_000 == 0),
        "MicroTime carries microseconds"
    );
    assert!(
        micro_times.iter().any(|t| t.0.subsec_nanosecond() != 0),
        "MicroTime uses its microseconds"
    );
    assert!(
        quantities.iter().all(|q| q.0.starts_with(|c: char| c.is_ascii_digit())),
        "{quantities:?}"
    );
    assert!(byte_strings.iter().any(|b| !b.0.is_empty()));
    assert!(int_or_strings.iter().any(|v| matches!(v, IntOrString::Int(_))));
    assert!(int_or_strings.iter().any(|v| matches!(v, IntOrString::String(_))));
}

#[test]
fn numbers_stay_json_safe() {
    let limit = 1u64 << 53;
    for seed in 0..500 {
        assert!(must_fill::<u64>(seed) <= limit);
        assert!(must_fill::<i64>(seed).unsigned_abs() <= limit);
        assert!(must_fill::<f64>(seed).is_finite());
        assert!(must_fill::<f32>(seed).is_finite());
    }
}

/// A recursive type through both a collection and an option.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Tree {
    name: String,
    children: Vec<Tree>,
    next: Option<Box<Tree>>,
}

impl Tree {
    fn depth(&self) -> usize {
        let below = self.children.iter().chain(self.next.as_deref()).map(Tree::depth).max();
        1 + below.unwrap_or(0)
    }
}

/// A recursive enum: whether it ends depends on the variants drawn.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
enum Expr {
    Literal(i32),
    Negate(Box<Expr>),
    Add(Box<Expr>, Box<Expr>),
}

/// A type without a finite value.
#[derive(Debug, Deserialize)]
struct Loop {
    _next: Box<Loop>,
}

#[test]
fn recursive_types_terminate() {
    let max_depth = FillOptions::default().max_depth;
    let trees: Vec<Tree> = fill_all(0..100);
    assert!(
        trees.iter().all(|t| t.depth() <= max_depth + 1),
        "trees stop at the depth limit"
    );
    assert!(trees.iter().any(|t| t.depth() > 2), "trees do nest");
    let _: Vec<Expr> = fill_all(0..100);
    assert!(matches!(fill::<Loop>(0), Err(FillError::Rejected { attempts: 32, .. })));
}

/// The spec of [`Flattened`].
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Spec {
    replicas: Option<i32>,
    #[serde(default)]
    selector: BTreeMap<String, String>,
    paused: bool,
}

/// The shape every generated Kubernetes kind has: a flattened, optional `TypeMeta`.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Flattened {
    #[serde(flatten, default)]
    type_meta: Option<kube_core::TypeMeta>,
    #[serde(default)]
    metadata: ObjectMeta,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    spec: Option<Spec>,
}

/// A flattened struct whose required field is in no list of Kubernetes field names.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct FlattenedWidget {
    #[serde(flatten, default)]
    type_meta: Option<kube_core::TypeMeta>,
    widget: String,
    #[serde(default)]
    gadget: Option<u8>,
}

#[test]
fn flattened_structs_fill_their_other_fields() {
    let values: Vec<Flattened> = fill_all(0..100);
    let filled_metadata = values.iter().filter(|v| v.metadata != ObjectMeta::default()).count();
    let with_spec = values.iter().filter(|v| v.spec.is_some()).count();
    assert!(
        values.iter().all(|v| v.type_meta.is_none()),
        "TypeMeta stays empty, as in Go's fuzzer"
    );
    assert!(filled_metadata >= 90, "metadata filled in {filled_metadata} of 100");
    assert!(with_spec >= 55, "spec present in {with_spec} of 100");
    // A required field outside the known names is learned from serde's "missing field" error, while an
    // optional one is never asked for and keeps its default.
    let widgets: Vec<FlattenedWidget> = fill_all(0..50);
    assert!(widgets.iter().any(|w| !w.widget.is_empty()));
    assert!(widgets.iter().all(|w| w.gadget.is_none()));
}

/// A struct whose field list names an alias beside the field.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Aliased {
    #[serde(alias = "oldName")]
    new_name: String,
    other: u8,
}

/// Every kind of enum variant.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
enum Shape {
    Unit,
    Newtype(u8),
    Tuple(u8, String),
    Struct { side: u16, label: Option<String> },
}

#[test]
fn enums_and_aliases_fill() {
    let shapes: Vec<Shape> = fill_all(0..100);
    assert!(shapes.iter().any(|s| matches!(s, Shape::Unit)));
    assert!(shapes.iter().any(|s| matches!(s, Shape::Newtype(_))));
    assert!(shapes.iter().any(|s| matches!(s, Shape::Tuple(..))));
    assert!(shapes.iter().any(|s| matches!(s, Shape::Struct { .. })));
    let _: Vec<Aliased> = fill_all(0..20);
}

#[test]
fn none_frequency_follows_none_chance() {
    const SEEDS: u64 = 4_000;
    for none_chance in [0.0, 0.3, 0.8, 1.0] {
        let options = FillOptions {
            none_chance,
            ..FillOptions::default()
        };
        let nones = (0..SEEDS)
            .filter(|&seed| {
                fill_with::<Option<u32>>(seed, &options)
                    .expect("options fill")
                    .is_none()
            })
            .count();
        let frequency = nones as f64 / SEEDS as f64;
        assert!(
            (frequency - none_chance).abs() < 0.03,
            "none_chance {none_chance}: frequency {frequency}"
        );
    }
}

#[test]
fn lengths_and_depth_follow_the_options() {
    let options = FillOptions {
        max_len: 2,
        ..FillOptions::default()
    };
    let lengths: BTreeSet<usize> = (0..200)
        .map(|seed| fill_with::<Vec<u8>>(seed, &options).expect("vectors fill").len())
        .collect();
    assert_eq!(lengths, BTreeSet::from([0, 1, 2]));
    let flat = FillOptions {
        max_depth: 0,
        ..FillOptions::default()
    };
    for seed in 0..50 {
        assert!(fill_with::<Vec<u8>>(seed, &flat).expect("vectors fill").is_empty());
        assert!(fill_with::<Option<u8>>(seed, &flat).expect("options fill").is_none());
    }
}

#[test]
fn bad_none_chance_is_an_error() {
    for none_chance in [-0.1, 1.5, f64::NAN] {
        let options = FillOptions {
            none_chance,
            ..FillOptions::default()
        };
        assert!(matches!(
            fill_with::<u8>(0, &options),
            Err(FillError::InvalidNoneChance(_))
        ));
    }
}
