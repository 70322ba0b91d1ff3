/**
 * The compound library's Kubernetes manifests (deploy/kubernetes-library.yaml): current, valid, the library
 * mounted read-only in every replica, its options the server accepts, and the index Job writing the cache.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  LIBRARY_ARGS,
  LIBRARY_CLAIM,
  libraryDeployment,
  libraryIndexJob,
  renderLibraryManifests,
} from "../../deploy/manifests.ts";
import { parseCli } from "../../src/cli.ts";
import { ROOT } from "../helpers/process.ts";

test("deploy/kubernetes-library.yaml is generated from deploy/manifests.ts and validates", () => {
  assert.equal(readFileSync(join(ROOT, "deploy/kubernetes-library.yaml"), "utf8"), renderLibraryManifests());
  libraryIndexJob().validate();
  libraryDeployment().validate();
});

test("replicas mount the library read-only and read its cache; the Job alone writes it", () => {
  const pod = libraryDeployment().spec!.template.spec!;
  const container = pod.containers[0]!;
  assert.deepEqual(container.volumeMounts, [{ name: "library", mountPath: "/library", readOnly: true }]);
  assert.deepEqual(pod.volumes, [{
    name: "library",
    persistentVolumeClaim: { claimName: LIBRARY_CLAIM, readOnly: true },
  }]);
  assert.equal(container.securityContext?.readOnlyRootFilesystem, true);
  const job = libraryIndexJob().spec!.template.spec!;
  assert.equal(job.containers[0]!.volumeMounts![0]!.readOnly, undefined);
  assert.equal(job.restartPolicy, "Never");
});

test("the library options of the manifests are ones the server accepts", () => {
  const plan = parseCli([...LIBRARY_ARGS]);
  assert.equal(plan.kind, "serve");
  assert.deepEqual(plan.kind === "serve" && plan.options.library, {
    path: "/library/deck.smi.gz",
    cacheDir: "/library/cache",
  });
});
