// A compound library through the real server process: `--library` on a SMILES file, the index built on the first
// start and read from its cache on the second, library_search listed and answering both modes, the startup line
// naming what was skipped, and a missing file stopping the server with status 2. Runs against every artefact.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { collect, LineClient, ROOT, startServer } from "../helpers/process.ts";
import { modern } from "../helpers/protocol.ts";

const dir = mkdtempSync(join(tmpdir(), "chem-mcp-library-e2e-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const deck = join(dir, "deck.smi");
writeFileSync(deck, readFileSync(join(ROOT, "tests/data/library/nci400.smi"), "utf8") + "C1CC broken\n");
const args = ["--library", deck, "--library-cache", join(dir, "cache")];

interface Answer {
  searched: number;
  total: number;
  hits: { id: string; smiles: string; score?: number }[];
  skipped?: string;
}

async function session(): Promise<{ stderr: string; list: string[]; similar: Answer; containing: Answer }> {
  const child = startServer(args);
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const client = new LineClient(child);
  try {
    const list = await client.request(modern("tools/list", {}), 120_000);
    const call = async (id: number, args: Record<string, unknown>) => {
      const answer = await client.request({
        ...modern("tools/call", { name: "library_search", arguments: args }),
        id,
      });
      return (answer.result as { structuredContent: Answer }).structuredContent;
    };
    return {
      stderr,
      list: (list.result as { tools: { name: string }[] }).tools.map((t) => t.name),
      similar: await call(2, { query: "c1ccccc1O", top_k: 3 }),
      containing: await call(3, { query: "c1ccc2ccccc2c1", mode: "substructure", top_k: 2 }),
    };
  } finally {
    assert.equal(await client.close(), 0);
  }
}

test("the first start builds and caches the index, the second reads it; both answer alike", async () => {
  const first = await session();
  assert.match(first.stderr, /library: indexing /);
  assert.match(first.stderr, /library: index cached in /);
  assert.match(
    first.stderr,
    /library: 400 molecules from .*deck\.smi; 1 record skipped: line 401: RDKit could not/,
  );
  assert.ok(first.list.includes("library_search"));
  assert.equal(first.similar.searched, 400);
  assert.equal(first.similar.hits.length, 3);
  assert.match(first.similar.skipped ?? "", /^1 record skipped: line 401/);
  assert.deepEqual(first.containing.hits.map((h) => h.id), ["15", "128"]);
  assert.equal(first.containing.total, 10);
  const second = await session();
  assert.match(second.stderr, /library: index read from /);
  assert.doesNotMatch(second.stderr, /indexing/);
  assert.deepEqual(second.similar, first.similar);
  assert.deepEqual(second.containing, first.containing);
});

test("a missing library stops the server with status 2 and the reason", async () => {
  const finished = await collect(startServer(["--library", join(dir, "none.smi")]), "");
  assert.equal(finished.code, 2);
  assert.match(finished.stderr, /cannot read library .*none\.smi: ENOENT/);
});
