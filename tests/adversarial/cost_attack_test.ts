/**
 * Cost, not size, against the real server process (the runtime or binary tests/helpers/process.ts picks): dense
 * dummy-atom graphs that take RDKit tens of seconds to parse or describe are refused from their text, a
 * stereocentre-rich polycycle whose CIP labelling takes seconds runs in the pool, and JSON documents are not
 * SMILES. Beside each attack an honest client's call is answered within 5 s.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { type HttpServer, mcpHeaders, post, rawRequest, type RawResponse } from "../helpers/http.ts";
import { honestCall, isEthanolResult, toolCall } from "../helpers/attack.ts";
import { CIP_ATTACK, DENSE_DESCRIPTOR_ATTACK, DENSE_PARSE_ATTACK } from "../data/costly.ts";
import { startHttpServer } from "../helpers/http.ts";

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
