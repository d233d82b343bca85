//! The informers' cache against kube-runtime's reflector `Store`, in one run, over 100,000
//! cached apps/v1 Deployments of this crate, the type the generated informers cache (the 3.8 KB
//! Deployment of the server benchmarks with a uid, a resourceVersion and one managedFields
//! entry, in 100 namespaces of 1,000, with 1,000 `app` values of 100 objects each): a lister
//! `get`, a namespace `list`, a user-index lookup, and first the bytes each store holds per
//! cached object, with and without the transform that drops managedFields. kube's Store has neither a namespace nor a user index, so its list and lookup
//! filter `state()`. Run with `cargo bench -p apis --bench cache`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::{Arc, LazyLock};

use apis::apps::v1::Deployment;
use divan::Bencher;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{FieldsV1, ManagedFieldsEntry};
use kube::ResourceExt;
use kube::core::Selector;
use kube::runtime::reflector::{self, ObjectRef, Store};
use kube::runtime::watcher::Event;
use kube_apimachinery::client::cache::{IndexFunc, Indexer};
use kube_apimachinery::client::lister::Lister;
use serde_json::{Value, json};

/// Counts the bytes live on the heap, so a store's size is what filling it left allocated.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const OBJECTS: usize = 100_000;
const NAMESPACES: usize = 100;
const APPS: usize = 1_000;

/// The server benchmarks' Deployment (shared with them, not copied).
const DEPLOYMENT: &str = include_str!("../../kube-apiserver/benches/deployment.json");

/// A managedFields entry owning every field of the object, as an apply of the whole object has.
fn fields_of(v: &Value) -> Value {
    match v {
        Value::Object(map) => {
            let mut fields = serde_json::Map::new();
            fields.insert(".".into(), json!({}));
            for (k, v) in map {
                fields.insert(format!("f:{k}"), fields_of(v));
            }
            Value::Object(fields)
        }
        _ => json!({}),
    }
}

fn objects() -> Vec<Deployment> {
    let template: Value = serde_json::from_str(DEPLOYMENT).unwrap();
    let managed = ManagedFieldsEntry {
        api_version: Some("apps/v1".into()),
        fields_type: Some("FieldsV1".into()),
        fields_v1: Some(FieldsV1(fields_of(
            &json!({"metadata": template["metadata"], "spec": template["spec"]}),
        ))),
        manager: Some("kubectl".into()),
        operation: Some("Apply".into()),
        ..Default::default()
    };
    (0..OBJECTS)
        .map(|i| {
            let mut d: Deployment = serde_json::from_value(template.clone()).unwrap();
            let meta = &mut d.metadata;
            meta.name = Some(format!("deployment-{i:06}"));
            meta.namespace = Some(format!("ns-{:03}", i % NAMESPACES));
            meta.uid = Some(format!("00000000-0000-0000-0000-{i:012}"));
            meta.resource_version = Some((i + 1000).to_string());
            meta.labels
                .get_or_insert_with(Default::default)
                .insert("app".into(), format!("app-{}", i % APPS));
            meta.managed_fields = Some(vec![managed.clone()]);
            d
        })
        .collect()
}

fn app_index() -> (String, IndexFunc<Deployment>) {
    let f: IndexFunc<Deployment> = Arc::new(|d: &Deployment| d.labels().get("app").cloned().into_iter().collect());
    ("app".into(), f)
}

fn ours(objects: Vec<Deployment>, strip: bool) -> Arc<Indexer<Deployment>> {
    let indexer = Arc::new(Indexer::new());
    indexer.add_indexers([app_index()]);
    for mut d in objects {
        if strip {
            d.metadata.managed_fields = None;
        }
        indexer.upsert(Arc::new(d));
    }
    indexer
}

fn kube_store(objects: Vec<Deployment>) -> Store<Deployment> {
    let (store, mut writer) = reflector::store::<Deployment>();
    for d in objects {
        writer.apply_watcher_event(&Event::Apply(d));
    }
    store
}

/// Bytes left allocated per object by building a store from freshly decoded objects.
fn bytes_per_object<S>(build: impl FnOnce(Vec<Deployment>) -> S) -> (S, f64) {
    let before = LIVE.load(Ordering::SeqCst);
    let store = build(objects());
    let after = LIVE.load(Ordering::SeqCst);
    (store, (after - before) as f64 / OBJECTS as f64)
}

static OURS: LazyLock<Arc<Indexer<Deployment>>> = LazyLock::new(|| ours(objects(), false));
static KUBE: LazyLock<Store<Deployment>> = LazyLock::new(|| kube_store(objects()));

fn main() {
    let (a, ours_bytes) = bytes_per_object(|o| ours(o, false));
    drop(a);
    let (b, stripped) = bytes_per_object(|o| ours(o, true));
    drop(b);
    let (c, kube_bytes) = bytes_per_object(kube_store);
    drop(c);
    println!("bytes per cached Deployment ({OBJECTS} cached):");
    println!("  runtime Indexer (namespace and app indexes):   {ours_bytes:>8.0}");
    println!("  runtime Indexer, managedFields dropped:        {stripped:>8.0}");
    println!("  kube-runtime Store:                            {kube_bytes:>8.0}");
    divan::main();
}

fn target(i: usize) -> (String, String) {
    (format!("ns-{:03}", i % NAMESPACES), format!("deployment-{i:06}"))
}

#[divan::bench(name = "get/runtime_lister")]
fn get_ours(b: Bencher) {
    let lister = Lister::new(OURS.clone());
    let mut i = 0;
    b.bench_local(|| {
        i = (i + 7919) % OBJECTS;
        let (ns, name) = target(i);
        lister.namespace(&ns).get(&name).unwrap()
    });
}

#[divan::bench(name = "get/kube_store")]
fn get_kube(b: Bencher) {
    let store = KUBE.clone();
    let mut i = 0;
    b.bench_local(|| {
        i = (i + 7919) % OBJECTS;
        let (ns, name) = target(i);
        store.get(&ObjectRef::new(&name).within(&ns)).unwrap()
    });
}

#[divan::bench(name = "namespace_list/runtime_lister")]
fn namespace_list_ours(b: Bencher) {
    let lister = Lister::new(OURS.clone());
    b.bench_local(|| {
        let all = lister.namespace("ns-042").list(&Selector::default());
        assert_eq!(all.len(), OBJECTS / NAMESPACES);
        all
    });
}

#[divan::bench(name = "namespace_list/kube_store_state_filtered")]
fn namespace_list_kube(b: Bencher) {
    let store = KUBE.clone();
    b.bench_local(|| {
        let all: Vec<_> = store
            .state()
            .into_iter()
            .filter(|d| d.metadata.namespace.as_deref() == Some("ns-042"))
            .collect();
        assert_eq!(all.len(), OBJECTS / NAMESPACES);
        all
    });
}

#[divan::bench(name = "index_lookup/runtime_by_index")]
fn index_ours(b: Bencher) {
    let indexer = OURS.clone();
    b.bench_local(|| {
        let hits = indexer.by_index("app", "app-42").unwrap();
        assert_eq!(hits.len(), OBJECTS / APPS);
        hits
    });
}

#[divan::bench(name = "index_lookup/kube_store_state_filtered")]
fn index_kube(b: Bencher) {
    let store = KUBE.clone();
    b.bench_local(|| {
        let hits: Vec<_> = store
            .state()
            .into_iter()
            .filter(|d| d.labels().get("app").map(String::as_str) == Some("app-42"))
            .collect();
        assert_eq!(hits.len(), OBJECTS / APPS);
        hits
    });
}
