// Messages a model reads: RDKit's reason for a refused SMILES said once, cuts on character boundaries, and the
// --tools selection that tolerates an empty setting.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { parseSmiles } from "../../src/chem/rdkit.ts";
import { ChemError, preview, wellFormed } from "../../src/errors.ts";
import { selectTools, TOOLS } from "../../src/tools/registry.ts";

await loadTestRDKit();

function refusal(smiles: string): ChemError {
  try {
    parseSmiles(smiles).delete();
  } catch (error) {
    if (error instanceof ChemError) return error;
    throw error;
  }
  throw new Error(`${smiles} parsed`);
}

const count = (text: string, part: string) => text.split(part).length - 1;

test("INVALID_SMILES says RDKit's reason once and the SMILES once", () => {
  const cases: [string, RegExp][] = [
    ["c1ccccc1(O", /: unclosed branch: a '\(' is never closed\.$/],
    ["CC)C", /: extra '\)': it closes no open branch\.$/],
    ["C1CC", /: unclosed ring: a ring-closure digit is never closed\.$/],
    ["[Xx]C", /: unknown element symbol or syntax error at character 2 \('X'\)\.$/],
    ["Cq", /: unknown element symbol or syntax error at character 2 \('q'\)\.$/],
    ["C==C", /: syntax error at character 3 \('='\)\.$/],
    ["CN(C)(C)(C)C", /: Explicit valence for atom # 1 N, 5, is greater than permitted\.$/],
  ];
  for (const [smiles, reason] of cases) {
    const error = refusal(smiles);
    assert.equal(error.code, "INVALID_SMILES", smiles);
    assert.match(error.message, reason, smiles);
    assert.equal(count(error.message, smiles), 1, error.message);
    assert.doesNotMatch(error.message, /Failed parsing|for input/, error.message);
  }
});

test("a reason's character is a whole character, never half a surrogate pair", () => {
  const error = refusal("C\u{1F600}C");
  assert.equal(error.code, "INVALID_SMILES");
  assert.equal(wellFormed(error.message), error.message);
});

test("preview cuts on character boundaries and mends lone surrogates", () => {
  const face = "\u{1F600}";
  assert.equal(preview("C".repeat(100), 5), "CCCCC…");
  // 79 ASCII then a pair across the 80th unit: the pair goes whole or not at all.
  const cut = preview("C".repeat(79) + face + "C", 80);
  assert.equal(cut, "C".repeat(79) + "…");
  assert.equal(preview("C".repeat(78) + face + "CC", 80), "C".repeat(78) + face + "…");
  assert.equal(preview("a\ud800b"), "a\ufffdb");
  assert.equal(preview("\udc00" + face), "\ufffd" + face);
  assert.equal(wellFormed(face + "\ud83d"), face + "\ufffd");
});

test("--tools: empty entries are ignored and an empty value means the default", () => {
  const names = (text: string) => {
    const selection = selectTools(text);
    assert.ok(selection.ok, text);
    return selection.tools.map((tool) => tool.name);
  };
  const spec = TOOLS.map((tool) => tool.name);
  assert.deepEqual(names(""), spec);
  assert.deepEqual(names(" , ,"), spec);
  assert.deepEqual(names("spec,"), spec);
  assert.deepEqual(names(",depict,,"), ["depict"]);
  assert.equal(selectTools("spec,nope").ok, false);
});
