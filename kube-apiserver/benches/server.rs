//! Benchmarks of the server: the request edges (a 4 KB apps/v1 Deployment decoded to the storage
//! version, and a stored object encoded for a response, against serde_json alone), and requests
//! over loopback HTTP to the sample server on the embedded store and, when `/usr/bin/etcd` exists,
//! on a single-member etcd: get, list of 1k and 10k objects, create, update, and one change fanned
//! out to 100 watchers; and a typed list of 1k through the generated clientset in JSON and protobuf. Run with `cargo bench -p kube-apiserver --bench server`.

use std::sync::{Arc, LazyLock};

use divan::Bencher;
use kube_apimachinery::{GroupVersion, GroupVersionKind};
use kube_generic_apiserver::convert::{FieldValidation, Versions};
use serde_json::{Value, json};

/// The allocator of the sample-apiserver binary, so the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

mod support;

use support::{BACKENDS, DEPLOYMENT, backend};

static VERSIONS: LazyLock<Versions> = LazyLock::new(|| Versions::new(Arc::new(apis::scheme().unwrap())));

#[divan::bench]
fn serde_json_alone(b: Bencher) {
    b.bench(|| serde_json::from_slice::<apis::apps::v1::Deployment>(DEPLOYMENT.as_bytes()).unwrap());
}

/// The codec's single pass: bytes to the internal object (decode, defaults, conversion).
#[divan::bench(args = [false, true])]
fn codec_decode_to_internal(b: Bencher, strict: bool) {
    let codec = kube_apimachinery::codec::Codec::new(VERSIONS.scheme()).with_strict(strict);
    b.bench(|| codec.decode(DEPLOYMENT.as_bytes()).unwrap());
}

/// The typed v1 Deployment, defaulted, as the server validates it.
static TYPED: LazyLock<apis::apps::v1::Deployment> = LazyLock::new(|| {
    let mut d: apis::apps::v1::Deployment = serde_json::from_str(DEPLOYMENT).unwrap();
    apis::apps::v1::set_object_defaults_deployment(&mut d);
    d
});

/// The Deployment's validation: the generated rules of apps/v1 and core/v1 with the hand-written
/// ones beside them (selector, strategy, containers, ports, resources), on create.
#[divan::bench]
fn validate_create(b: Bencher) {
    let op = kube_apimachinery::validation::Operation::create();
    b.bench(|| {
        let errs = apis::apps::v1::validate_deployment(&op, &kube_apimachinery::validation::Path::ROOT, &TYPED, None);
        assert!(errs.is_empty(), "{errs:?}");
    });
}

/// The same on an update that changes only a label: ratcheting skips the unchanged spec.
#[divan::bench]
fn validate_update_unchanged_spec(b: Bencher) {
    let op = kube_apimachinery::validation::Operation::update();
    let old = serde_json::from_value::<apis::apps::v1::Deployment>(serde_json::to_value(&*TYPED).unwrap()).unwrap();
    b.bench(|| {
        apis::apps::v1::validate_deployment(&op, &kube_apimachinery::validation::Path::ROOT, &TYPED, Some(&old))
    });
}

/// The server's whole validation of the stored JSON: decoded to the typed object, then checked
/// (`Scheme::validate_value`, what the registry store runs on every write).
#[divan::bench]
fn validate_stored_value(b: Bencher) {
    let op = kube_apimachinery::validation::Operation::create();
    let gvk = GroupVersionKind::from_static("apps", "v1", "Deployment");
    let value = serde_json::to_value(&*TYPED).unwrap();
    b.bench(|| VERSIONS.scheme().validate_value(&op, &gvk, &value, None));
}

/// The same Deployment as a protobuf body (client-go's typed clients send these).
static PROTOBUF: LazyLock<Vec<u8>> = LazyLock::new(|| {
    let codec = kube_apimachinery::codec::Codec::new(VERSIONS.scheme());
    let value: Value = serde_json::from_str(DEPLOYMENT).unwrap();
    codec.protobuf_from_value(&value).unwrap().unwrap()
});

/// The protobuf message alone: bytes to the typed v1 Deployment (protobuf-gen's code).
#[divan::bench]
fn protobuf_alone(b: Bencher) {
    let raw = kube_apimachinery::protobuf::Unknown::decode(&PROTOBUF).unwrap().raw;
    b.bench(|| kube_apimachinery::protobuf::decode_message::<apis::apps::v1::Deployment>(&raw).unwrap());
}

/// A protobuf body to the internal object (envelope, message, defaults, conversion).
#[divan::bench]
fn protobuf_decode_to_internal(b: Bencher) {
    let codec = kube_apimachinery::codec::Codec::new(VERSIONS.scheme());
    b.bench(|| codec.decode(&PROTOBUF).unwrap());
}

/// The typed v1 Deployment written as a protobuf message, against serde_json writing it.
#[divan::bench(args = ["protobuf", "json"])]
fn encode_typed(b: Bencher, format: &str) {
    let typed: apis::apps::v1::Deployment = serde_json::from_str(DEPLOYMENT).unwrap();
    match format {
        "protobuf" => b.bench(|| kube_apimachinery::protobuf::encode_message(&typed)),
        _ => b.bench(|| serde_json::to_vec(&typed).unwrap()),
    }
}

/// What the server does with a create body: strict decode to the storage version, as a value.
#[divan::bench]
fn decode_body_to_storage_version(b: Bencher) {
    let gvk = GroupVersionKind::from_static("apps", "v1", "Deployment");
    let storage = GroupVersion::from_static("apps", "v1");
    b.bench(|| {
        VERSIONS
            .decode_body(DEPLOYMENT.as_bytes(), &gvk, &storage, FieldValidation::Strict)
            .unwrap()
    });
}

#[divan::bench]
fn encode_response_in_another_version(b: Bencher) {
    let value: Value = serde_json::from_str(DEPLOYMENT).unwrap();
    let (v1, v1beta2) = (
        GroupVersion::from_static("apps", "v1"),
        GroupVersion::from_static("apps", "v1beta2"),
    );
    b.bench(|| serde_json::to_vec(&VERSIONS.to_version(value.clone(), &v1, &v1beta2).unwrap()).unwrap());
}

#[divan::bench(args = BACKENDS)]
fn get(b: Bencher, name: &str) {
    let Some(s) = backend(name) else { return };
    let url = format!("{}/apis/apps/v1/namespaces/small/deployments/d00042", s.url);
    b.bench(|| {
        s.rt.block_on(async { s.client.get(&url).send().await.unwrap().bytes().await.unwrap() })
    });
}

#[divan::bench(args = BACKENDS, sample_count = 20)]
fn list_1k(b: Bencher, name: &str) {
    let Some(s) = backend(name) else { return };
    let url = format!("{}/apis/apps/v1/namespaces/small/deployments", s.url);
    b.bench(|| {
        s.rt.block_on(async { s.client.get(&url).send().await.unwrap().bytes().await.unwrap() })
    });
}

/// A typed list of the 1,000 Deployments through the generated clientset on the embedded store,
/// decoded into `apis::apps::v1::Deployment`s: JSON against protobuf (the clientset's default
/// for built-in kinds), request, transfer and decoding included.
#[divan::bench(args = ["json", "protobuf"], sample_count = 20)]
fn clientset_list_1k(b: Bencher, format: &str) {
    let Some(s) = backend("memory") else { return };
    let client = s.rt.block_on(async {
        let config = kube::Config::new(s.url.parse().unwrap());
        generated::clientset::Clientset::new(kube::Client::try_from(config).unwrap())
    });
    let deployments = client.apps_v1().deployments("small");
    let deployments = if format == "json" {
        deployments.json()
    } else {
        deployments
    };
    let lp = kube::api::ListParams::default();
    b.bench(|| {
        let list = s.rt.block_on(deployments.list(&lp)).unwrap();
        assert_eq!(list.items.len(), 1000);
    });
}

#[divan::bench(args = BACKENDS, sample_count = 5, sample_size = 1)]
fn list_10k(b: Bencher, name: &str) {
    let Some(s) = backend(name) else { return };
    let url = format!("{}/apis/apps/v1/namespaces/large/deployments", s.url);
    b.bench(|| {
        s.rt.block_on(async { s.client.get(&url).send().await.unwrap().bytes().await.unwrap() })
    });
}

#[divan::bench(args = BACKENDS)]
fn create(b: Bencher, name: &str) {
    let Some(s) = backend(name) else { return };
    let url = format!("{}/api/v1/namespaces/small/configmaps", s.url);
    let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"generateName": "c-"}, "data": {"k": "v"}});
    b.bench(|| {
        s.rt.block_on(async {
            assert!(
                s.client
                    .post(&url)
                    .json(&body)
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .is_success()
            )
        })
    });
}

#[divan::bench(args = BACKENDS)]
fn update(b: Bencher, name: &str) {
    let Some(s) = backend(name) else { return };
    let url = format!("{}/apis/apps/v1/namespaces/small/deployments/d00007", s.url);
    let mut doc: Value = serde_json::from_str(DEPLOYMENT).unwrap();
    doc["metadata"]["name"] = json!("d00007");
    let mut n = 0;
    b.bench_local(|| {
        n += 1;
        doc["spec"]["replicas"] = json!(n % 50);
        s.rt.block_on(async {
            assert!(
                s.client
                    .put(&url)
                    .json(&doc)
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .is_success()
            )
        })
    });
}

/// One change delivered to 100 open watches: the time from the write until every watcher has it.
#[divan::bench(args = BACKENDS, sample_count = 10, sample_size = 1)]
fn watch_fan_out_to_100(b: Bencher, name: &str) {
    let Some(s) = backend(name) else { return };
    let watch_url = format!(
        "{}/api/v1/namespaces/small/configmaps?watch=true&resourceVersion=",
        s.url
    );
    let cm_url = format!("{}/api/v1/namespaces/small/configmaps", s.url);
    b.bench_local(|| {
        s.rt.block_on(async {
            let now = s
                .client
                .get(format!("{cm_url}?limit=1"))
                .send()
                .await
                .unwrap()
                .json::<Value>()
                .await
                .unwrap();
            let rv = now["metadata"]["resourceVersion"].as_str().unwrap().to_string();
            let mut watches = Vec::new();
            for _ in 0..100 {
                watches.push(s.client.get(format!("{watch_url}{rv}")).send().await.unwrap());
            }
            let body = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"generateName": "w-"}});
            s.client.post(&cm_url).json(&body).send().await.unwrap();
            futures::future::join_all(watches.iter_mut().map(|w| w.chunk())).await
        })
    });
}
