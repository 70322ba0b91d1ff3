import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import { DRUGS50 } from "../data/drugs50.ts";
import { RUNAWAY_MCS } from "../data/runaway.ts";
import { findMcs, MCS_MAX_MOLECULES, mcsParameters } from "../../src/chem/mcs.ts";
import { ChemError } from "../../src/errors.ts";
import { findMcsTool } from "../../src/tools/find_mcs.ts";

await loadTestRDKit();

const drug = (name: string) => {
  const entry = DRUGS50.find((d) => d.name === name);
  assert.ok(entry, name);
  return entry.smiles;
};

const isCode = (code: string, text?: RegExp) => (e: unknown) =>
  e instanceof ChemError && e.code === code && (!text || text.test(e.message));

test("2-phenylethanol / 2-phenylethylamine share the phenethyl skeleton: 8 atoms, 8 bonds", () => {
  const r = findMcs(["OCCc1ccccc1", "NCCc1ccccc1"]);
  assert.equal(r.atom_count, 8);
  assert.equal(r.bond_count, 8);
  assert.equal(r.timed_out, false);
  // Every atom but the heteroatom (index 0) is matched in both.
  assert.deepEqual(r.matches.map((m) => [...(m ?? [])].sort((a, b) => a - b)), [[1, 2, 3, 4, 5, 6, 7, 8], [
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
  ]]);
});

test("aspirin, salicylic acid and ibuprofen share a benzene ring with one carbon substituent (7 atoms)", () => {
  // Ring-carbon: aspirin's and salicylic acid's carboxyl C, ibuprofen's CH(CH3)COOH or CH2 carbon. Beyond
  // that carbon the neighbours differ by element (C(=O)O vs CH(C)C), so nothing more is common.
  const r = findMcs([drug("aspirin"), "OC(=O)c1ccccc1O", drug("(S)-ibuprofen")]);
  assert.equal(r.atom_count, 7);
  assert.equal(r.bond_count, 7);
  assert.ok(r.matches.every((m) => m?.length === 7));
});

test("ring_matches_ring_only controls whether chain atoms may map onto ring atoms", () => {
  // Benzene and hexane: with ring-only matching (atoms and bonds) no ring atom may map onto a chain atom.
  assert.throws(
    () => findMcs(["c1ccccc1", "CCCCCC"], { bondCompare: "any" }),
    isCode("NO_COMMON_SUBSTRUCTURE"),
  );
  const loose = findMcs(["c1ccccc1", "CCCCCC"], { bondCompare: "any", ringMatchesRingOnly: false });
  assert.equal(loose.atom_count, 6);
  assert.equal(loose.bond_count, 5);
});

test("threshold < 1 finds a substructure shared by a subset; molecules without it get a null match", () => {
  const r = findMcs(["OCCc1ccccc1", "NCCc1ccccc1", "CCCC"], { threshold: 0.6 });
  assert.equal(r.atom_count, 8);
  assert.equal(r.matches[2], null);
});

test("no common substructure, too few molecules, bad SMILES, oversized molecule: typed errors", () => {
  assert.throws(() => findMcs(["CCO", "[Na+].[Cl-]"]), isCode("NO_COMMON_SUBSTRUCTURE"));
  assert.throws(() => findMcs(["CCO"]), isCode("UNSUPPORTED_MOLECULE"));
  assert.throws(() => findMcs(Array(MCS_MAX_MOLECULES + 1).fill("CCO")), isCode("MOLECULE_TOO_LARGE"));
  assert.throws(() => findMcs(["CCO", "C1CC"]), isCode("INVALID_SMILES", /Molecule 1/));
  assert.throws(() => findMcs(["CCO", "C".repeat(151)]), isCode("MOLECULE_TOO_LARGE", /Molecule 1/));
});

test("the time limit is honoured: a hard pair stops with timed_out and a partial result", () => {
  // Cyclosporin A vs erythromycin with any-atom/any-bond matching does not finish within 10 s here; with a
  // 1 s budget FMCS must cancel and still report its best common substructure so far.
  const r = findMcs([...RUNAWAY_MCS.smiles_list], {
    timeoutSeconds: 1,
    atomCompare: "any",
    bondCompare: "any",
    ringMatchesRingOnly: false,
  });
  assert.equal(r.timed_out, true);
  assert.ok(r.atom_count > 10, `partial MCS of ${r.atom_count} atoms`);
});

test("parameters map onto RDKit's MCSParameters JSON keys and bounds are enforced", () => {
  assert.deepEqual(mcsParameters({}), {
    Timeout: 2,
    AtomCompare: "Elements",
    BondCompare: "Order",
    RingMatchesRingOnly: true,
    CompleteRingsOnly: false,
    MatchChiralTag: false,
    Threshold: 1,
  });
  assert.throws(() => mcsParameters({ timeoutSeconds: 11 }), RangeError);
  assert.equal(
    v.safeParse(findMcsTool.input, { smiles_list: ["C", "C"], timeout_seconds: 11 }).success,
    false,
  );
  assert.equal(v.safeParse(findMcsTool.input, { smiles_list: ["C"] }).success, false);
  assert.equal(v.safeParse(findMcsTool.input, { smiles_list: Array(21).fill("C") }).success, false);
});

test("find_mcs tool result validates against its output schema", async () => {
  const input = v.parse(findMcsTool.input, { smiles_list: ["OCCc1ccccc1", "NCCc1ccccc1", "Cc1ccccc1CO"] });
  const out = await findMcsTool.run(input);
  v.parse(findMcsTool.output, out);
  assert.equal(out.molecule_count, 3);
  assert.equal(out.timeout_seconds, 2);
  assert.match(out.method, /Dalke & Hastings/);
});
