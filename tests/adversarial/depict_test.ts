// depict under hostile input, through the real server with the extra tools listed (`--tools all`): huge
// molecules, the largest grid and canvas the schema allows, a grid over its atom budget, markup in legends. Each
// call gets a picture or a typed error within a bound, and the next ordinary picture is unharmed. Skipped,
// saying why, on a build whose --tools does not list depict.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LineClient, startServer } from "../helpers/process.ts";
import { decodePng } from "../helpers/png.ts";
import { checkWellFormed } from "../helpers/xml.ts";
import { skipName } from "../helpers/skip.ts";
import { callDepict, DEPICT_ARGS, depictUnavailable } from "../helpers/depiction.ts";

const skip = await depictUnavailable();

interface Answer {
  error?: { code: number; message: string };
  result?: {
    isError: boolean;
    content: { type: string; text?: string; data?: string }[];
    structuredContent: {
      width?: number;
      height?: number;
      error?: { code: string; message: string };
    };
  };
}

const TYPED = new Set([
  "MOLECULE_TOO_LARGE",
  "INVALID_SMILES",
  "UNSUPPORTED_MOLECULE",
  "COMPUTATION_TIMEOUT",
]);

test(
  skipName("huge molecules, the largest grid and canvas, hostile text: a picture or a typed error", skip),
  {
    skip,
  },
  async () => {
    const client = new LineClient(startServer(DEPICT_ARGS, { CHEM_MCP_WORKERS: "2" }));
    const call = async (args: Record<string, unknown>) => (await callDepict(client, args)) as Answer;
    const healthy = async (after: string) => {
      const answer = await call({ smiles: "CCO", smarts: "[OH]", format: "png" });
      assert.equal(answer.result?.isError, false, `after ${after}`);
      assert.equal(
        decodePng(new Uint8Array(Buffer.from(answer.result!.content[0]!.data!, "base64"))).width,
        300,
      );
    };
    try {
      const huge = {
        "300-membered aromatic ring": "c1" + "c".repeat(298) + "c1",
        "499-atom chain": "C".repeat(499),
        "900-atom chain": "C".repeat(900),
      };
      for (const [label, smiles] of Object.entries(huge)) {
        for (const format of ["svg", "png"]) {
          const answer = await call({ smiles, format, highlight: "alerts" });
          assert.equal(answer.error, undefined, `${label}: ${JSON.stringify(answer.error)}`);
          if (answer.result!.isError) {
            const code = answer.result!.structuredContent.error!.code;
            assert.ok(TYPED.has(code), `${label}: ${code}`);
          }
        }
        await healthy(label);
      }
      // The largest picture the schema allows: 16 molecules of 500 × 500 px, 2000 × 2000 px in all.
      const grid = Array.from({ length: 16 }, (_, i) => `c1ccccc1${"C".repeat(i)}N`);
      const started = performance.now();
      const big = await call({ smiles: grid, format: "png", width: 500, height: 500 });
      const png = decodePng(new Uint8Array(Buffer.from(big.result!.content[0]!.data!, "base64")));
      assert.deepEqual([png.width, png.height], [2000, 2000]);
      assert.ok(performance.now() - started < 60_000);
      // A grid over its atom budget is refused before any drawing.
      const refused = await call({ smiles: Array(16).fill("C".repeat(200)) });
      assert.equal(refused.result!.structuredContent.error!.code, "MOLECULE_TOO_LARGE");
      // Markup in a grid's SMILES is refused or drawn as outlines: it cannot reach the document.
      const marked = await call({
        smiles: ["C", "N", "O", "S"],
        labels: ["<script>alert(1)</script>", "]]>", "&amp;", "<!--"],
        format: "svg",
      });
      assert.equal(checkWellFormed(marked.result!.content[0]!.text!), "svg");
      assert.doesNotMatch(marked.result!.content[0]!.text!, /<script|alert\(1\)/);
      await healthy("the largest grid");
      // A highlight whose search would run away (a 51-membered wildcard ring in a 130-atom ladder) is refused from
      // the text, in far less than the time the search would hold a worker.
      let ladder = "";
      for (let i = 0; i < 65; i++) {
        ladder += `C(C${i > 0 ? ((i + 1) % 2) + 1 : ""}${i < 64 ? (i % 2) + 1 : ""})`;
      }
      const runaway = performance.now();
      const ring = await call({ smiles: ladder, smarts: "*1" + "*".repeat(49) + "*1" });
      assert.equal(ring.result!.structuredContent.error!.code, "MOLECULE_TOO_LARGE");
      assert.ok(performance.now() - runaway < 10_000);
      await healthy("a runaway highlight");
    } finally {
      assert.equal(await client.close(), 0);
    }
  },
);
