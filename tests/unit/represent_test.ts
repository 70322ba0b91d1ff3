import { test } from "node:test";
import assert from "node:assert/strict";
import * as v from "valibot";
import { loadTestRDKit } from "../helpers/rdkit.ts";
import {
  chooseRepresentation,
  CML_NAMESPACE,
  hillFormula,
  identifiers,
  inchi,
  inchikey,
  KEYWORD_RULES,
  TASK_KINDS,
  toCml,
  xmlAttr,
} from "../../src/chem/represent.ts";
import { toMolJson } from "../../src/chem/moljson/writer.ts";
import { fromMolJson } from "../../src/chem/moljson/reader.ts";
import { canonicalSmiles } from "../../src/chem/identity.ts";
import { ChemError } from "../../src/errors.ts";
import { representationRouterTool } from "../../src/tools/representation_router.ts";

await loadTestRDKit();

// Standard InChI / InChIKey values as published by PubChem (ethanol CID 702, aspirin CID 2244, caffeine CID
// 2519, L-alanine CID 5950).
test("InChI and InChIKey match PubChem's published identifiers", () => {
  assert.equal(inchi("OCC"), "InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3");
  assert.equal(inchikey("CCO"), "LFQSCWFLJHTTHZ-UHFFFAOYSA-N");
  assert.equal(
    inchi("CC(=O)Oc1ccccc1C(=O)O"),
    "InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)",
  );
  assert.equal(inchikey("CC(=O)Oc1ccccc1C(=O)O"), "BSYNRYMUTXBXSQ-UHFFFAOYSA-N");
  assert.equal(inchikey("Cn1cnc2c1c(=O)n(C)c(=O)n2C"), "RYYVLZVUVIJVGH-UHFFFAOYSA-N");
  assert.equal(inchikey("N[C@@H](C)C(=O)O"), "QNAYBMKLOCPYGJ-REOHCLBHSA-N");
  assert.throws(
    () => inchi("*CC"),
    (e: unknown) => e instanceof ChemError && e.code === "UNSUPPORTED_MOLECULE",
  );
});

test("identifiers: canonical SMILES, InChI, InChIKey and Hill formula", () => {
  const id = identifiers("OC(=O)c1ccccc1OC(C)=O");
  assert.equal(id.canonical_smiles, "CC(=O)Oc1ccccc1C(=O)O");
  assert.equal(id.inchikey, "BSYNRYMUTXBXSQ-UHFFFAOYSA-N");
  assert.equal(id.formula, "C9H8O4");
  assert.equal(identifiers("Cn1cnc2c1c(=O)n(C)c(=O)n2C").formula, "C8H10N4O2");
});

test("Hill order: C, H, then alphabetical; no carbon → all alphabetical; charge appended RDKit-style", () => {
  assert.equal(hillFormula(toMolJson("[Na+].[Cl-]")), "ClNa");
  assert.equal(hillFormula(toMolJson("O")), "H2O");
  assert.equal(hillFormula(toMolJson("OS(=O)(=O)O")), "H2O4S");
  assert.equal(hillFormula(toMolJson("CC(=O)[O-].[Na+]")), "C2H3NaO2");
  assert.equal(hillFormula(toMolJson("C[N+](C)(C)C")), "C4H12N+");
  assert.equal(hillFormula(toMolJson("[O-]S(=O)(=O)[O-]")), "O4S-2");
  assert.equal(hillFormula(toMolJson("BrC(Cl)I")), "CHBrClI");
  assert.equal(hillFormula(toMolJson("[2H]C([2H])([2H])O")), "CH4O");
  // Dummy atoms as RDKit's CalcMolFormula writes them (RDKit 2022.09: CH3*, C2H4*2, C6H4*Cl).
  assert.equal(hillFormula(toMolJson("C*")), "CH3*");
  assert.equal(hillFormula(toMolJson("*CC*")), "C2H4*2");
  assert.equal(hillFormula(toMolJson("*c1ccccc1Cl")), "C6H4*Cl");
});

/**
 * A strict XML 1.0 well-formedness check for the subset CML uses: declaration, elements, attributes in
 * double quotes, character data, the five predefined entities and numeric character references.
 */
function assertWellFormedXml(xml: string): { root: string; attributes: Map<string, string>[] } {
  let rest = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\s*/, "");
  assert.notEqual(rest, xml, "XML declaration missing");
  const stack: string[] = [];
  const attributes: Map<string, string>[] = [];
  let root = "";
  const entity = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/y;
  const checkText = (text: string) => {
    assert.ok(!text.includes("<"), `raw '<' in ${text}`);
    for (let i = text.indexOf("&"); i >= 0; i = text.indexOf("&", i + 1)) {
      entity.lastIndex = i;
      assert.ok(entity.test(text), `bad entity at ${text.slice(i, i + 10)}`);
    }
  };
  while (rest.length > 0) {
    const lt = rest.indexOf("<");
    if (lt < 0) {
      assert.equal(rest.trim(), "", "text after the root element");
      break;
    }
    const text = rest.slice(0, lt);
    if (stack.length === 0) assert.equal(text.trim(), "", "text outside the root element");
    checkText(text);
    const end = rest.indexOf(">", lt);
    assert.ok(end > lt, "unterminated tag");
    const tag = rest.slice(lt + 1, end);
    rest = rest.slice(end + 1);
    if (tag.startsWith("/")) {
      assert.equal(tag.slice(1), stack.pop(), "mismatched end tag");
      continue;
    }
    const m = /^([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.:-]*="[^"]*")*)\s*(\/?)$/.exec(tag);
    assert.ok(m, `malformed tag <${tag}>`);
    const [, name = "", attrText = "", selfClosing] = m;
    if (stack.length === 0) {
      assert.equal(root, "", "more than one root element");
      root = name;
    }
    const attrs = new Map<string, string>();
    for (const a of attrText.matchAll(/([A-Za-z_][\w.:-]*)="([^"]*)"/g)) {
      assert.ok(!attrs.has(a[1] ?? ""), `duplicate attribute ${a[1]}`);
      checkText(a[2] ?? "");
      attrs.set(a[1] ?? "", a[2] ?? "");
    }
    attributes.push(attrs);
    if (!selfClosing) stack.push(name);
  }
  assert.equal(stack.length, 0, `unclosed elements ${stack.join(", ")}`);
  return { root, attributes };
}

test("CML is well-formed, namespaced, with atomArray/bondArray attributes and Kekulé bond orders", () => {
  const cml = toCml("c1ccccc1C(=O)[O-]", { title: `a <"quoted"> & 'odd' title` });
  const { root, attributes } = assertWellFormedXml(cml);
  assert.equal(root, "molecule");
  assert.equal(attributes[0]?.get("xmlns"), CML_NAMESPACE);
  assert.equal(attributes[0]?.get("title"), "a &#60;&#34;quoted&#34;&#62; &#38; &#39;odd&#39; title");
  assert.ok(cml.includes("<atomArray>") && cml.includes("<bondArray>"));
  const atoms = attributes.filter((a) => a.has("elementType"));
  assert.equal(atoms.length, 9);
  assert.deepEqual(atoms.map((a) => a.get("elementType")), ["C", "C", "C", "C", "C", "C", "C", "O", "O"]);
  assert.deepEqual(atoms.map((a) => a.get("hydrogenCount")), ["1", "1", "1", "1", "1", "0", "0", "0", "0"]);
  assert.equal(atoms[8]?.get("formalCharge"), "-1");
  const orders = attributes.filter((a) => a.has("atomRefs2")).map((a) => a.get("order"));
  assert.equal(orders.length, 9);
  // Kekulé benzene: three double and three single ring bonds, plus C-C, C=O, C-O-.
  assert.equal(orders.filter((o) => o === "2").length, 4);
  assert.ok(orders.every((o) => o === "1" || o === "2"));
});

test("CML stereo: atomParity sign and bondStereo C/T", () => {
  // F[C@](Cl)(Br)I: from F, Cl→Br→I anticlockwise ⇒ chiral volume det[1;x;y;z](F,Cl,Br,I) < 0.
  const s = toCml("F[C@](Cl)(Br)I");
  assertWellFormedXml(s);
  assert.match(s, /<atomParity atomRefs4="a1 a3 a4 a5">-1<\/atomParity>/);
  assert.match(toCml("F[C@@](Cl)(Br)I"), /<atomParity atomRefs4="a1 a3 a4 a5">1<\/atomParity>/);
  // Implicit H: the centre's own id stands in for it.
  assert.match(toCml("N[C@@H](C)C(=O)O"), /atomRefs4="a1 a3 a4 a2">1</);
  const e = toCml("C/C=C/C");
  assertWellFormedXml(e);
  assert.match(e, /<bondStereo atomRefs4="a1 a2 a3 a4">T<\/bondStereo>/);
  assert.match(toCml("C/C=C\\C"), /<bondStereo atomRefs4="a1 a2 a3 a4">C<\/bondStereo>/);
  assert.match(toCml("[13CH3][CH2]"), /isotopeNumber="13"/);
  assert.match(toCml("[13CH3][CH2]"), /spinMultiplicity="2"/);
});

test("xmlAttr escapes markup and drops characters XML forbids", () => {
  assert.equal(xmlAttr(`<a b="c" & 'd'>`), "&#60;a b=&#34;c&#34; &#38; &#39;d&#39;&#62;");
  assert.equal(xmlAttr("x\u0001y"), "xy");
});

test("router: each task kind fires its rule", () => {
  const expected: Record<string, string> = {
    atom_edit: "moljson",
    reaction_mapping: "moljson",
    stereo_review: "moljson",
    identity_dedup: "inchi",
    database_lookup: "inchi",
    xml_pipeline: "cml",
    compact_prompt: "canonical_smiles",
    generation: "canonical_smiles",
  };
  assert.deepEqual([...TASK_KINDS].sort(), Object.keys(expected).sort());
  for (const kind of TASK_KINDS) {
    const r = chooseRepresentation({ smiles: "OCC", task_kind: kind, task: "put it in an XML file" });
    assert.equal(r.representation, expected[kind], kind);
    assert.equal(r.rule, `kind:${kind}`, "task_kind takes precedence over the text");
    assert.equal(r.task_kind, kind);
  }
});

test("router: keyword rules in order, and the default", () => {
  const cases: [string, string, string][] = [
    ["Feed this into our XSLT pipeline", "keyword:xml", "cml"],
    ["Remove duplicates from the compound list", "keyword:identity", "inchi"],
    ["look up this compound in a database", "keyword:lookup", "inchi"],
    ["atom-to-atom mapping of the esterification", "keyword:mapping", "moljson"],
    ["which stereocentres are there?", "keyword:stereo", "moljson"],
    ["Replace the chlorine by fluorine", "keyword:edit", "moljson"],
    ["Keep the prompt short", "keyword:compact", "canonical_smiles"],
    ["What is this molecule used for?", "default", "canonical_smiles"],
  ];
  for (const [task, rule, representation] of cases) {
    const r = chooseRepresentation({ smiles: "CC(=O)Oc1ccccc1C(=O)O", task });
    assert.equal(r.rule, rule, task);
    assert.equal(r.representation, representation, task);
  }
  assert.equal(chooseRepresentation({ smiles: "CCO" }).rule, "default");
  // Earlier rules win: XML before identity.
  assert.equal(chooseRepresentation({ smiles: "CCO", task: "dedup the XML export" }).rule, "keyword:xml");
  assert.equal(KEYWORD_RULES[0]?.id, "keyword:xml");
});

test("router: each representation's text is valid and describes the same molecule", () => {
  const smiles = "C/C=C/[C@@H](N)C(=O)O";
  const canonical = canonicalSmiles(smiles);
  const mj = chooseRepresentation({ smiles, task_kind: "atom_edit" });
  assert.equal(fromMolJson(JSON.parse(mj.text)).smiles, canonical);
  const ii = chooseRepresentation({ smiles, task_kind: "identity_dedup" });
  assert.equal(ii.text, inchi(smiles));
  assert.ok(ii.text.startsWith("InChI=1S/"));
  const cml = chooseRepresentation({ smiles, task_kind: "xml_pipeline" });
  assertWellFormedXml(cml.text);
  assert.equal(chooseRepresentation({ smiles, task_kind: "compact_prompt" }).text, canonical);
});

test("router tool result validates against its output schema", async () => {
  for (
    const args of [{ smiles: "CCO", task: "dedupe" }, { smiles: "CCO", task_kind: "xml_pipeline" as const }, {
      smiles: "CCO",
    }]
  ) {
    const input = v.parse(representationRouterTool.input, args);
    v.parse(representationRouterTool.output, await representationRouterTool.run(input));
  }
  assert.equal(
    v.safeParse(representationRouterTool.input, { smiles: "CCO", task_kind: "nope" }).success,
    false,
  );
});
