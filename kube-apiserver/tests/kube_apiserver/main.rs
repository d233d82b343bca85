//! kube-apiserver's end-to-end tests, one binary (each test file of the crate linked once): the
//! sample server (this repository's `apis` with kube-apiserver's policy) on loopback, on the
//! embedded store and on etcd members the tests start, driven by the real kubectl, the Python
//! and JavaScript clients, kube-rs and the generated clientset, informers and fake.

mod support;

mod audit;
mod authentication;
mod authorization_matrix;
mod bootstrap;
mod clientset;
mod controller;
mod conversion_webhook;
mod custom_resources;
mod custom_schemas;
mod discovery;
mod doc_examples;
mod etcd;
mod events;
mod garbage_collector;
mod http;
mod informers;
mod install;
mod javascript;
mod kube_answers;
mod kube_derive;
mod kubectl;
mod kubectl_crds;
mod kubectl_create;
mod leases;
mod paths;
mod protobuf;
mod python;
mod semantics;
mod service_accounts;
mod services;
mod strategies;
mod validation;
