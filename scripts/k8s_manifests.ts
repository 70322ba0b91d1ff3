/**
 * Writes deploy/kubernetes.yaml from the typed manifests of deploy/manifests.ts, after validating each against
 * the Kubernetes JSON schemas `kubernetes-models` carries.
 *
 * Usage: deno run -A scripts/k8s_manifests.ts
 */
import { writeFileSync } from "node:fs";
import {
  libraryDeployment,
  libraryIndexJob,
  manifests,
  renderLibraryManifests,
  renderManifests,
} from "../deploy/manifests.ts";

for (const manifest of manifests()) manifest.validate();
writeFileSync("deploy/kubernetes.yaml", renderManifests());
console.log("wrote deploy/kubernetes.yaml");
for (const manifest of [libraryIndexJob(), libraryDeployment()]) manifest.validate();
writeFileSync("deploy/kubernetes-library.yaml", renderLibraryManifests());
console.log("wrote deploy/kubernetes-library.yaml");
