// depict through the real server process with the extra tools listed (`--tools all`): a pooled worker draws
// the picture and, for PNG, compiles resvg's WebAssembly from where its artefact keeps it (node_modules, Deno's
// module graph, the single executable's asset), and the answer is MCP image content. Runs against every
// artefact, like the other end-to-end suites.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LineClient, startServer } from "../helpers/process.ts";
import { decodePng } from "../helpers/png.ts";
import { checkWellFormed } from "../helpers/xml.ts";
import { skipName } from "../helpers/skip.ts";
import { callDepict, DEPICT_ARGS, depictUnavailable } from "../helpers/depiction.ts";

const skip = await depictUnavailable();

interface CallResult {
  isError: boolean;
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  structuredContent: {
    format: string;
    width: number;
    height: number;
    molecules: { highlight_atoms: number[]; highlights: { why: string }[] }[];
  };
}

test(
  skipName("a highlighted PNG comes back as image content; SVG as text; a grid of 12", skip),
  { skip },
  async () => {
    const client = new LineClient(startServer(DEPICT_ARGS));
    try {
      const call = async (args: Record<string, unknown>) =>
        ((await callDepict(client, args)) as { result: CallResult }).result;
      const png = await call({ smiles: "CC(=O)Nc1ccc(O)cc1", smarts: "c1ccccc1", format: "png", width: 320 });
      assert.equal(png.isError, false);
      const [image, facts] = png.content;
      assert.equal(image!.type, "image");
      assert.equal(image!.mimeType, "image/png");
      const decoded = decodePng(new Uint8Array(Buffer.from(image!.data!, "base64")));
      assert.deepEqual([decoded.width, decoded.height], [320, 250]);
      assert.deepEqual(png.structuredContent.molecules[0]!.highlight_atoms, [4, 5, 6, 7, 9, 10]);
      assert.deepEqual(JSON.parse(facts!.text!), png.structuredContent);

      const svg = await call({ smiles: "S=C1SC(=Cc2ccccc2)C(=O)N1", highlight: "alerts", format: "svg" });
      assert.equal(checkWellFormed(svg.content[0]!.text!), "svg");
      assert.ok(
        svg.structuredContent.molecules[0]!.highlights.some((h) => h.why.startsWith("PAINS_A alert ")),
      );

      const grid = Array.from({ length: 12 }, (_, i) => `c1ccccc1${"C".repeat(i)}O`);
      const picture = await call({ smiles: grid, format: "png", width: 200, height: 150 });
      const cells = decodePng(new Uint8Array(Buffer.from(picture.content[0]!.data!, "base64")));
      assert.deepEqual([cells.width, cells.height], [800, 450]);
      assert.equal(picture.structuredContent.molecules.length, 12);
    } finally {
      assert.equal(await client.close(), 0);
    }
  },
);
