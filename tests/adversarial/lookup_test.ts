/**
 * A hostile name lookup service against the real server process: no redirect followed to another origin, names
 * that cannot change the request path, templates refused at start unless `{name}` is in the path or query, and
 * no remote body or URL credentials in any answer.
 */
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { collect, startServer } from "../helpers/process.ts";
import { type HostileLookup, REMOTE_SECRET, startHostileLookup } from "../helpers/lookup_stub.ts";
import { toolCall } from "../helpers/attack.ts";
import { createServer } from "node:net";

/** A port on 127.0.0.1 where nothing listens (fetch blocks the well-known ones such as 9). */
function closedPort(): Promise<number> {
  const probe = createServer();
  return new Promise((resolve) =>
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    })
  );
}

let lookup: HostileLookup;
before(async () => {
  lookup = await startHostileLookup();
});

interface Answer {
  id: number;
  result?: { structuredContent?: { smiles?: string; error?: { code: string; message: string } } };
}

/** Looks each name up in one stdio server process; resolves with the answers in order and the raw stdout. */
async function lookUp(names: string[], template = lookup.template): Promise<[Answer[], string]> {
  const child = startServer([], { CHEM_MCP_NAME_LOOKUP_URL: template });
  const input = names.map((name, i) => toolCall("name_to_smiles", { name }, String(i + 1))).join("\n");
  const { stdout, code } = await collect(child, `${input}\n`);
  assert.equal(code, 0);
  const answers = stdout.trim().split("\n").map((l) => JSON.parse(l) as Answer).sort((a, b) => a.id - b.id);
  return [answers, stdout];
}

const codeOf = (a: Answer | undefined) => a?.result?.structuredContent?.error?.code;

test("lookup: a redirect to another origin is refused; same-origin redirects are followed, at most 3", async () => {
  const [answers, stdout] = await lookUp(["redirect-away", "redirect-same", "redirect-loop"]);
  assert.equal(codeOf(answers[0]), "LOOKUP_BAD_RESPONSE");
  assert.match(answers[0]!.result!.structuredContent!.error!.message, /another origin/);
  assert.deepEqual(lookup.elsewhere, [], "the other origin was asked");
  assert.equal(answers[1]?.result?.structuredContent?.smiles, "CC(=O)Oc1ccccc1C(=O)O");
  assert.equal(codeOf(answers[2]), "LOOKUP_BAD_RESPONSE");
  assert.ok(!stdout.includes(REMOTE_SECRET), stdout);
});

test("lookup: names cannot change the request path (dot segments, slashes, ? and #)", async () => {
  const before = lookup.paths.length;
  const dots = [".", "..", "%2e", "%2E%2e", ".%2e"];
  const others = ["a/../../b", "x?y=1", "x#y", "a/b", "it's (S)-x*", "%2F.."];
  const [answers] = await lookUp([...dots.slice(0, 2), ...dots.slice(2), ...others]);
  for (const answer of answers.slice(0, 2)) assert.equal(codeOf(answer), "NAME_NOT_FOUND");
  const seen = lookup.paths.slice(before);
  for (const path of seen) assert.match(path, /^\/lookup\/[^/?#]+\/json$/, path);
  const names = seen.map((p) => decodeURIComponent(/^\/lookup\/([^/]+)\/json$/.exec(p)![1]!));
  assert.ok(!names.includes(".") && !names.includes(".."), `a dot segment reached the service: ${names}`);
  for (const name of [...dots.slice(2), ...others]) {
    assert.ok(names.includes(name), `${name} not asked as sent`);
  }
});

test("lookup: no remote body, fault text or remote SMILES in any answer", async () => {
  const [answers, stdout] = await lookUp(["garbage", "bad-smiles", "fault", "unknown-name"]);
  assert.deepEqual(answers.map(codeOf), [
    "LOOKUP_BAD_RESPONSE",
    "LOOKUP_BAD_RESPONSE",
    "LOOKUP_BAD_RESPONSE",
    "NAME_NOT_FOUND",
  ]);
  assert.ok(!stdout.includes(REMOTE_SECRET), stdout);
  assert.ok(!stdout.includes("<script>"), stdout);
});

test("lookup: a huge molecule from the service never reaches the protocol thread's RDKit; later calls unharmed", async () => {
  const child = startServer([], { CHEM_MCP_NAME_LOOKUP_URL: lookup.template });
  const input = [
    toolCall("name_to_smiles", { name: "ring-300" }, "1"),
    toolCall("name_to_smiles", { name: "chain-499" }, "2"),
    toolCall("name_to_smiles", { name: "aspirin" }, "3"),
    toolCall("calc_properties", { smiles: "OCC" }, "4"),
    toolCall("smarts_match", { smiles: "CCO", smarts: "CO" }, "5"),
  ].join("\n");
  const { stdout, stderr, code } = await collect(child, `${input}\n`);
  assert.equal(code, 0);
  const answers = stdout.trim().split("\n").map((l) => JSON.parse(l) as Answer).sort((a, b) => a.id - b.id);
  assert.deepEqual(answers.slice(0, 2).map(codeOf), ["MOLECULE_TOO_LARGE", "MOLECULE_TOO_LARGE"]);
  assert.ok(!stdout.includes("cccccccccc") && !stdout.includes("CCCCCCCCCC"), "the remote SMILES echoed");
  assert.equal(answers[2]?.result?.structuredContent?.smiles, "CC(=O)Oc1ccccc1C(=O)O");
  assert.match(JSON.stringify(answers[3]), /"molecular_weight":46.069/);
  assert.match(JSON.stringify(answers[4]), /"match_count":1/);
  assert.doesNotMatch(stderr, /every later call runs in the pool|threw:/);
});

test("lookup: templates with {name} outside the path and query, or with credentials, are refused at start", async () => {
  const templates = [
    "http://{name}.example.org/x",
    "http://127.0.0.1:{name}/x",
    "http://{name}@127.0.0.1/x",
    "http://user:{name}@127.0.0.1/x",
    "http://127.0.0.1/x#{name}",
    "http://user:hunter2@127.0.0.1:9/x/{name}",
    "ftp://127.0.0.1/{name}",
  ];
  for (const template of templates) {
    const child = startServer([], { CHEM_MCP_NAME_LOOKUP_URL: template });
    const { code, stderr } = await collect(child, "", 30_000);
    assert.equal(code, 2, template);
    assert.match(stderr, /^chem-mcp: Name lookup URL template /, template);
    assert.ok(!stderr.includes("hunter2"), stderr);
    assert.doesNotMatch(stderr, /\n\s+at /, stderr);
  }
  const port = await closedPort();
  for (
    const template of [
      `http://127.0.0.1:${port}/x?q={name}&f=json`,
      `http://127.0.0.1:${port}/x/{name}/y#frag`,
    ]
  ) {
    const [answers] = await lookUp(["aspirin"], template);
    assert.equal(codeOf(answers[0]), "LOOKUP_UNREACHABLE", template);
  }
});

test("lookup: an unreachable service's error names the host and the failure, never the URL", async () => {
  const port = await closedPort();
  const [answers, stdout] = await lookUp(["aspirin"], `http://127.0.0.1:${port}/secret-path/{name}?key=k3y`);
  assert.equal(codeOf(answers[0]), "LOOKUP_UNREACHABLE");
  assert.ok(answers[0]!.result!.structuredContent!.error!.message.includes(`127.0.0.1:${port}`));
  assert.ok(!stdout.includes("k3y") && !stdout.includes("secret-path"), stdout);
});
