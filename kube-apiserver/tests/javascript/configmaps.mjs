// A third real client: the official JavaScript client (@kubernetes/client-node, pinned by
// `cargo xtask test`, which installs it under target/js-client) against the sample API server.
//
// Creates, reads, lists in pages, patches (merge, JSON patch, server-side apply), deletes and
// watches ConfigMaps through the typed API and an informer; prints one line per check and exits
// non-zero on the first failure. Usage: node configmaps.mjs http://127.0.0.1:PORT <client-node entry>

import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";

const [server, entry] = process.argv.slice(2);
const k8s = await import(pathToFileURL(entry).href);

const kc = new k8s.KubeConfig();
kc.loadFromClusterAndUser({ name: "test", server, skipTLSVerify: true }, { name: "test" });
const core = kc.makeApiClient(k8s.CoreV1Api);
const ns = "js";

// The error the client raises for a Status, with its code and parsed body.
async function failure(call) {
  try {
    await call();
  } catch (e) {
    const body = typeof e.body === "string" ? JSON.parse(e.body) : e.body;
    return { code: e.code, body };
  }
  assert.fail("the call succeeded");
}

await core.createNamespace({ body: { metadata: { name: ns } } });
const informer = k8s.makeInformer(kc, `/api/v1/namespaces/${ns}/configmaps`, () =>
  core.listNamespacedConfigMap({ namespace: ns }),
);
const added = [];
const deleted = [];
informer.on("add", (cm) => added.push(cm.metadata.name));
informer.on("delete", (cm) => deleted.push(cm.metadata.name));
await informer.start();
console.log("informer: started");

for (const name of ["a", "b", "c"]) {
  const created = await core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name, labels: { app: "js" } }, data: { k: name } },
  });
  assert.ok(created.metadata.uid);
}
const read = await core.readNamespacedConfigMap({ name: "b", namespace: ns });
assert.equal(read.data.k, "b");
console.log("create and read: 3 objects");

const page = await core.listNamespacedConfigMap({ namespace: ns, limit: 2 });
assert.equal(page.items.length, 2);
assert.equal(page.metadata.remainingItemCount, 1);
const rest = await core.listNamespacedConfigMap({ namespace: ns, limit: 2, _continue: page.metadata._continue });
assert.deepEqual(rest.items.map((i) => i.metadata.name), ["c"]);
console.log("list: 2 pages, remainingItemCount 1");

const merged = await core.patchNamespacedConfigMap(
  { name: "a", namespace: ns, body: { data: { k: "merged" } } },
  k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch),
);
assert.equal(merged.data.k, "merged");
const jsonPatched = await core.patchNamespacedConfigMap(
  {
    name: "a",
    namespace: ns,
    body: [
      { op: "test", path: "/metadata/finalizers", value: null },
      { op: "add", path: "/data/j", value: "patched" },
    ],
  },
  k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.JsonPatch),
);
assert.equal(jsonPatched.data.j, "patched");
const applied = await core.patchNamespacedConfigMap(
  {
    name: "applied",
    namespace: ns,
    fieldManager: "js",
    body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "applied" }, data: { shared: "js" } },
  },
  k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.ServerSideApply),
);
assert.equal(applied.data.shared, "js");
const conflict = await failure(() =>
  core.patchNamespacedConfigMap(
    {
      name: "applied",
      namespace: ns,
      fieldManager: "other",
      body: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "applied" }, data: { shared: "other" } },
    },
    k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.ServerSideApply),
  ),
);
assert.equal(conflict.code, 409);
assert.equal(conflict.body.details.causes[0].field, ".data.shared");
console.log("patch: merge, JSON patch, apply, apply conflict with causes");

const status = await core.deleteNamespacedConfigMap({ name: "b", namespace: ns });
assert.equal(status.status, "Success");
assert.equal(status.details.name, "b");
const missing = await failure(() => core.readNamespacedConfigMap({ name: "b", namespace: ns }));
assert.equal(missing.code, 404);
assert.equal(missing.body.reason, "NotFound");
const invalid = await failure(() =>
  core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: "Bad_Name" } } }),
);
assert.equal(invalid.code, 422);
assert.equal(invalid.body.details.causes[0].field, "metadata.name");
const dryRun = await core.deleteNamespacedConfigMap({ name: "c", namespace: ns, body: { dryRun: ["All"] } });
assert.equal(dryRun.status, "Success");
await core.readNamespacedConfigMap({ name: "c", namespace: ns });
console.log("delete: Success Status, 404, 422 with causes, dry run keeps the object");

const deadline = Date.now() + 10000;
while ((added.length < 4 || deleted.length < 1) && Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 50));
}
assert.deepEqual([...added].sort(), ["a", "applied", "b", "c"]);
assert.deepEqual(deleted, ["b"]);
assert.deepEqual(informer.list(ns).map((o) => o.metadata.name).sort(), ["a", "applied", "c"]);
await informer.stop();
console.log("informer: 4 adds, 1 delete, cache of 3");
