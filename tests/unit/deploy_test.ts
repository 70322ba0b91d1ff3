/**
 * The deployment files agree with the Kubernetes schemas, with the image and with the server's HTTP surface:
 * deploy/kubernetes.yaml is current and valid, its probes and ports match deploy/Containerfile, and the HAProxy
 * health check in deploy/haproxy.cfg is a request the endpoint answers with 200.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import {
  APP,
  CONTAINER_PORT,
  deployment,
  manifests,
  renderManifests,
  RUN_AS,
} from "../../deploy/manifests.ts";
import { createServer } from "../../src/create_server.ts";
import { RequestReader } from "../../src/transport/h1.ts";
import { checkHead, isLoopbackHost, serveBody } from "../../src/transport/streamable.ts";
import { ROOT } from "../helpers/process.ts";

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

test("every manifest validates against the Kubernetes JSON schemas", () => {
  const kinds = manifests().map((manifest) => {
    manifest.validate();
    return manifest.kind;
  });
  assert.deepEqual(kinds, ["Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"]);
});

test("the schema check refuses a malformed manifest", () => {
  const broken = deployment();
  broken.spec!.template.spec!.containers[0]!.resources!.limits!.memory = "half a gigabyte";
  assert.throws(() => broken.validate(), /memory must match format "quantity"/);
});

test("deploy/kubernetes.yaml is generated from deploy/manifests.ts (run scripts/k8s_manifests.ts)", () => {
  assert.equal(read("deploy/kubernetes.yaml"), renderManifests());
  const documents = parseAllDocuments(read("deploy/kubernetes.yaml")).map((doc) => doc.toJSON());
  assert.deepEqual(documents, manifests().map((manifest) => manifest.toJSON()));
});

test("the Deployment runs the image's user and port, with resources and tcpSocket probes", () => {
  const containerfile = read("deploy/Containerfile");
  assert.match(containerfile, new RegExp(`^USER ${RUN_AS}:${RUN_AS}$`, "m"));
  assert.match(containerfile, new RegExp(`^EXPOSE ${CONTAINER_PORT}$`, "m"));
  assert.match(containerfile, new RegExp(`"--port", "${CONTAINER_PORT}"\\]$`, "m"));
  const pod = deployment().spec!.template.spec!;
  assert.equal(pod.securityContext?.runAsUser, RUN_AS);
  const container = pod.containers[0]!;
  assert.deepEqual(container.ports, [{ name: "http", containerPort: CONTAINER_PORT, protocol: "TCP" }]);
  assert.ok(container.resources?.requests?.cpu && container.resources.limits?.memory);
  for (const probe of [container.startupProbe, container.readinessProbe, container.livenessProbe]) {
    assert.deepEqual(probe?.tcpSocket, { port: "http" });
    assert.equal(probe?.httpGet, undefined);
  }
  assert.equal(APP, "chem-mcp");
});

/** A request head as the endpoint's reader parses it from raw bytes. */
function parseHead(raw: string) {
  const state = new RequestReader().feed(new TextEncoder().encode(raw));
  assert.equal(state.kind, "head");
  return state.kind === "head" ? state.head : undefined;
}

test("an httpGet probe could not pass: the endpoint answers GET /mcp with 405, so the probes are tcpSocket", () => {
  const head = parseHead("GET /mcp HTTP/1.1\r\nHost: 10.1.2.3:3000\r\nUser-Agent: kube-probe/1.30\r\n\r\n");
  const decision = checkHead(head!, { loopbackBind: false, allowedOrigins: new Set() });
  assert.equal(decision.kind === "respond" && decision.response.status, 405);
});

/** Splits an HAProxy directive into words; double-quoted words keep their spaces and lose their escapes. */
function haproxyWords(line: string): string[] {
  const words: string[] = [];
  for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)) {
    words.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : match[2]!);
  }
  return words;
}

test("the HAProxy health check is a server/discover request the endpoint answers with 200", async () => {
  const line = read("deploy/haproxy.cfg").split("\n").find((l) => l.trim().startsWith("http-check send"))!;
  const words = haproxyWords(line.trim()).slice(2);
  const field = (name: string) => words[words.indexOf(name) + 1]!;
  const headers = words.flatMap((word, i) => (word === "hdr" ? [`${words[i + 1]}: ${words[i + 2]}`] : []));
  const body = field("body");
  // HAProxy adds Content-Length for a check with a body.
  const raw = `${field("meth")} ${field("uri")} ${field("ver")}\r\n${headers.join("\r\n")}\r\n` +
    `Content-Length: ${new TextEncoder().encode(body).length}\r\n\r\n`;
  const head = parseHead(raw)!;
  const decision = checkHead(head, { loopbackBind: true, allowedOrigins: new Set() });
  assert.equal(decision.kind, "accept");
  const response = await serveBody(createServer(), head, new TextEncoder().encode(body));
  assert.equal(response.status, 200);
  assert.match(read("deploy/haproxy.cfg"), /http-check expect status 200/);
  const answer = JSON.parse(String(response.body)) as { result: { supportedVersions: string[] } };
  assert.deepEqual(answer.result.supportedVersions, ["2026-07-28"]);
});

test("HAProxy names loopback replicas by a loopback Host, which their Host guard accepts", () => {
  const line = read("deploy/haproxy.cfg").split("\n").find((l) =>
    l.trim().startsWith("http-request set-header Host")
  );
  const host = haproxyWords(line!.trim())[3]!;
  assert.ok(isLoopbackHost(host), host);
  const client = parseHead(
    `POST /mcp HTTP/1.1\r\nHost: chem-mcp.example.org\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n`,
  )!;
  const refused = checkHead(client, { loopbackBind: true, allowedOrigins: new Set() });
  assert.equal(refused.kind === "respond" && refused.response.status, 403);
});
