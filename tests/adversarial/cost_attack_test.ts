/**
 * Cost, not size, against the real server process (the runtime or binary tests/helpers/process.ts picks): dense
 * dummy-atom graphs that take RDKit tens of seconds to parse or describe are refused from their text, a
 * stereocentre-rich polycycle whose CIP labelling takes seconds runs in the pool, and JSON documents are not
 * SMILES, and depictions whose highlight search runs away count as possibly long. Beside each attack an honest
 * client's call is answered within 5 s.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { type HttpServer, mcpHeaders, post, rawRequest, type RawResponse } from "../helpers/http.ts";
import { honestCall, isEthanolResult, toolCall } from "../helpers/attack.ts";
import { CIP_ATTACK, DENSE_DESCRIPTOR_ATTACK, DENSE_PARSE_ATTACK, denseGraph } from "../data/costly.ts";
import { perhydroPolyacene, RUNAWAY_SMARTS } from "../data/runaway.ts";
import { startHttpServer } from "../helpers/http.ts";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

let server: HttpServer;
before(async () => {
  server = await startHttpServer();
  assert.ok(isEthanolResult(await honestCall(server.port)));
});
after(async () => await server.stop());

function call(tool: string, args: Record<string, unknown>): Promise<RawResponse> {
  return rawRequest(server.port, post(toolCall(tool, args), mcpHeaders("tools/call", tool), "/mcp"));
}

/** The typed error code of a tools/call answer, or undefined for a result. */
function errorCode(response: RawResponse): string | undefined {
  const body = JSON.parse(response.body) as {
    result?: { isError?: boolean; structuredContent?: { error?: { code?: string } } };
  };
  return body.result?.isError ? body.result.structuredContent?.error?.code : undefined;
}

/** Sends `attack` and, 200 ms into it, an honest call; the honest one must be answered within 5 s. */
async function besideHonest(attack: Promise<RawResponse>): Promise<RawResponse> {
  await new Promise((resolve) => setTimeout(resolve, 200));
  const started = performance.now();
  const honest = await honestCall(server.port);
  const elapsed = performance.now() - started;
  assert.ok(isEthanolResult(honest), honest.body);
  assert.ok(elapsed < 5_000, `honest call took ${Math.round(elapsed)} ms beside the attack`);
  return await attack;
}

test("cost attack: a 150-atom dummy graph with 1,164 ring closures is refused on the protocol thread's tool", async () => {
  const answer = await besideHonest(call("canonical_smiles", { smiles: DENSE_PARSE_ATTACK }));
  assert.equal(errorCode(answer), "MOLECULE_TOO_LARGE", answer.body);
  assert.match(answer.body, /excess_degree/);
});

test("cost attack: a 24-atom dense dummy graph is refused by the descriptor tools", async () => {
  for (const tool of ["calc_properties", "lipinski_check", "molecule_context_pack"]) {
    const answer = await besideHonest(call(tool, { smiles: DENSE_DESCRIPTOR_ATTACK }));
    assert.equal(errorCode(answer), "MOLECULE_TOO_LARGE", `${tool}: ${answer.body}`);
  }
});

test("cost attack: CIP labelling of a 30-stereocentre polycycle runs in the pool, beside honest calls", async () => {
  const answer = await besideHonest(call("smiles_to_moljson", { smiles: CIP_ATTACK }));
  // Answered either way (a MolJSON, or a typed error such as a timeout), never by freezing the server.
  assert.equal(answer.status, 200, answer.body);
});

test("cost attack: a dense dummy-atom MolJSON (150 atoms, 1,000 bonds) is refused before RDKit builds it", async () => {
  const bonds: { begin: number; end: number }[] = [];
  for (let span = 1; bonds.length < 1_000; span++) {
    for (let i = 0; i + span < 150 && bonds.length < 1_000; i++) bonds.push({ begin: i, end: i + span });
  }
  const moljson = {
    format: "moljson",
    version: 1,
    atoms: Array.from({ length: 150 }, (_, index) => ({ index, element: "*" })),
    bonds,
  };
  const answer = await besideHonest(call("moljson_to_smiles", { moljson }));
  assert.equal(errorCode(answer), "MOLECULE_TOO_LARGE", answer.body);
});

test("cost attack: CommonChem and RDKit JSON documents are INVALID_SMILES", async () => {
  for (
    const document of [
      '{"commonchem":{"version":10},"molecules":[{"atoms":[{"z":6}]}]}',
      '{"rdkitjson":{"version":11},"molecules":[{"atoms":[{"z":6}],"bonds":[]}]}',
    ]
  ) {
    assert.equal(errorCode(await call("canonical_smiles", { smiles: document })), "INVALID_SMILES");
  }
});

/** A lookup service that answers every name with `smiles`, PubChem-style; resolves with its URL template. */
function startCostlyLookup(smiles: string): Promise<[Server, string]> {
  const service = createHttpServer((_request, response) => {
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ PropertyTable: { Properties: [{ CID: 1, SMILES: smiles }] } }));
  });
  return new Promise((resolve) =>
    service.listen(0, "127.0.0.1", () => {
      const { port } = service.address() as AddressInfo;
      resolve([service, `http://127.0.0.1:${port}/rest/pug/compound/name/{name}/property/SMILES/JSON`]);
    })
  );
}

test("cost attack: a lookup service answering costly SMILES gets them refused, not parsed on the protocol thread", async () => {
  for (
    const [smiles, code] of [
      [DENSE_PARSE_ATTACK, "MOLECULE_TOO_LARGE"],
      [denseGraph(150, 140, "*", 1, 4), "MOLECULE_TOO_LARGE"],
    ] as const
  ) {
    const [service, template] = await startCostlyLookup(smiles);
    const looked = await startHttpServer([], { CHEM_MCP_NAME_LOOKUP_URL: template });
    try {
      // A fresh server's first pooled call waits for a worker to start (seconds on a loaded machine): the bound
      // below is about the attack, so the pool is up first.
      assert.ok(isEthanolResult(await honestCall(looked.port)));
      const lookUp = rawRequest(
        looked.port,
        post(toolCall("name_to_smiles", { name: "x" }), mcpHeaders("tools/call", "name_to_smiles"), "/mcp"),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      assert.ok(isEthanolResult(await honestCall(looked.port)));
      const ms = performance.now() - started;
      assert.ok(ms < 5_000, `honest call took ${Math.round(ms)} ms beside the lookup`);
      assert.equal(errorCode(await lookUp), code);
    } finally {
      await looked.stop();
      service.close();
    }
  }
});

test("cost attack: three depictions of a 130-atom ladder highlighting a 51-membered wildcard ring hold no honest call", async () => {
  // The highlight's substructure search has no time limit of its own, whatever its text's size: each such call
  // is possibly long, so they hold at most all workers but one and an honest call takes that one.
  const extras = await startHttpServer(["--tools", "all"]);
  try {
    assert.ok(isEthanolResult(await honestCall(extras.port)));
    const depict = toolCall("depict", { smiles: perhydroPolyacene(32), smarts: RUNAWAY_SMARTS });
    const attacks = [1, 2, 3].map(() =>
      rawRequest(extras.port, post(depict, mcpHeaders("tools/call", "depict"), "/mcp")).catch(() => undefined)
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    const honest = await honestCall(extras.port);
    const elapsed = performance.now() - started;
    assert.ok(isEthanolResult(honest), honest.body);
    assert.ok(elapsed < 5_000, `honest call took ${Math.round(elapsed)} ms beside the depictions`);
    void Promise.allSettled(attacks);
  } finally {
    await extras.stop();
  }
});
