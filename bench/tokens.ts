/**
 * What the model reads, in tokens and characters: the model-facing part of `tools/list` (name, title,
 * description, inputSchema), the whole `tools/list` result, and the text content of every tool's result for ten
 * varied drugs (median and max per tool; the context pack per format), each against its character budget and
 * as a ratio to the previous run. Tokens are counted with gpt-tokenizer's o200k_base encoding (the GPT-4o and
 * o-series tokenizer). Run: npx deno run -A bench/tokens.ts
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { loadTestRDKit } from "../tests/helpers/rdkit.ts";
import {
  BUDGET_DRUGS,
  callsFor,
  connection,
  DEFAULT_RESULT_BUDGET,
  HUNDRED_MOLECULES,
  LIST_BUDGET_RATIO,
  LIST_BUDGET_TOOLS,
  LIST_BUDGETS,
  LIST_EXEMPT_TOOLS,
  listAndSingles,
  listMolecules,
  PACK_BUDGETS,
  PER_ATOM_TOOLS,
  repeatedContent,
  RESULT_BUDGETS,
  resultText,
  toolsListText,
  useLocalNameLookup,
} from "../tests/helpers/budget.ts";
import { loadPrevious } from "./previous.ts";
import { ALL_TOOLS, TOOLS } from "../src/tools/registry.ts";

await loadTestRDKit();
useLocalNameLookup();
const conn = connection();
const previous = loadPrevious("tokens");
const figures: Record<string, number> = {};

interface Row {
  name: string;
  /** Key of the figures in bench/results/tokens.json (the name when not given). */
  key?: string;
  chars: number;
  tokens: number;
  budget?: number;
  note?: string;
  repeats?: number;
}

function print(title: string, rows: Row[]): void {
  console.log(`\n${title}\n`);
  console.log(
    "| what | characters | tokens | chars/token | budget (chars) | repeated content | tokens vs previous run |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    const budget = r.budget === undefined ? r.note ?? "–" : `${r.budget}${r.chars > r.budget ? " OVER" : ""}`;
    console.log(
      `| ${r.name} | ${r.chars} | ${r.tokens} | ${(r.chars / r.tokens).toFixed(2)} | ${budget} | ` +
        `${r.repeats ?? "–"} | ` +
        `${previous.speedup(`${r.key ?? r.name} tokens`, r.tokens)} |`,
    );
    figures[`${r.key ?? r.name} tokens`] = r.tokens;
    figures[`${r.key ?? r.name} chars`] = r.chars;
  }
}

const list = await toolsListText(connection(TOOLS));
const all = await toolsListText(conn);
print(`tools/list (modern dialect; the default 20 tools, and --tools all: ${ALL_TOOLS.length})`, [
  {
    name: "tools/list, model-facing",
    chars: list.modelFacing.length,
    tokens: countTokens(list.modelFacing),
    budget: LIST_BUDGETS.modelFacing,
  },
  {
    name: "tools/list, whole",
    chars: list.whole.length,
    tokens: countTokens(list.whole),
    budget: LIST_BUDGETS.whole,
  },
  {
    name: "tools/list --tools all, model-facing",
    chars: all.modelFacing.length,
    tokens: countTokens(all.modelFacing),
  },
  { name: "tools/list --tools all, whole", chars: all.whole.length, tokens: countTokens(all.whole) },
]);

interface Sample {
  chars: number;
  tokens: number;
  atoms: number;
  label: string;
  repeats: string[];
}
const samples = new Map<string, Sample[]>();
for (const drug of BUDGET_DRUGS) {
  for (const call of callsFor(drug)) {
    const text = await resultText(conn, call);
    const key = call.tool === "molecule_context_pack"
      ? `molecule_context_pack (${call.args.format})`
      : call.tool;
    const atoms = (JSON.parse(text) as { atom_count?: number }).atom_count ?? 0;
    const sample = {
      chars: text.length,
      tokens: countTokens(text),
      atoms,
      label: call.label,
      repeats: repeatedContent(JSON.parse(text)),
    };
    samples.set(key, [...(samples.get(key) ?? []), sample]);
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const rows: Row[] = [];
for (const [key, list] of samples) {
  const tool = key.replace(/ \(.*\)$/, "");
  const max = list.reduce((a, b) => (b.chars > a.chars ? b : a));
  const perAtom = PER_ATOM_TOOLS.includes(tool);
  const budget = perAtom ? undefined : RESULT_BUDGETS[tool] ?? DEFAULT_RESULT_BUDGET;
  const repeats = list.flatMap((s) => s.repeats);
  const note = perAtom
    ? `per atom ${median(list.map((s) => s.chars / s.atoms)).toFixed(0)} chars, ` +
      `${median(list.map((s) => s.tokens / s.atoms)).toFixed(1)} tokens (median)`
    : undefined;
  const packAtorvastatin = key.startsWith("molecule_context_pack")
    ? list.find((s) => s.label.startsWith("atorvastatin"))
    : undefined;
  rows.push({
    name: `${key}, median`,
    chars: median(list.map((s) => s.chars)),
    tokens: median(list.map((s) => s.tokens)),
    budget: packAtorvastatin ? undefined : budget,
    note,
  });
  rows.push({
    name: `${key}, max (${max.label.replace(/ \(.*\)$/, "")})`,
    key: `${key}, max`,
    chars: max.chars,
    tokens: max.tokens,
    budget: packAtorvastatin ? undefined : budget,
    note,
    repeats: repeats.length,
  });
  if (packAtorvastatin) {
    const format = /\((\w+)\)/.exec(key)![1] as keyof typeof PACK_BUDGETS;
    rows.push({
      name: `${key}, atorvastatin`,
      chars: packAtorvastatin.chars,
      tokens: packAtorvastatin.tokens,
      budget: PACK_BUDGETS[format],
    });
  }
}
print(
  `Tool results: text content for ${BUDGET_DRUGS.length} drugs (${
    BUDGET_DRUGS.map((d) => d.name).join(", ")
  }); budgets apply to every drug, the context pack's to atorvastatin`,
  rows,
);
console.log(
  `\nbatch calls against single calls of the same molecules (${HUNDRED_MOLECULES.length} drug-like molecules, ` +
    `or the tool's cap): characters; budget ≤ ${LIST_BUDGET_RATIO} × single calls, or the measured ratio of an exempt tool\n`,
);
console.log("| tool | molecules | single calls, chars | list call, chars | list/single | budget |");
console.log("| --- | ---: | ---: | ---: | ---: | --- |");
const listed = [
  ...Object.entries(LIST_BUDGET_TOOLS).map(([tool, args]) => [tool, args, LIST_BUDGET_RATIO] as const),
  ...Object.entries(LIST_EXEMPT_TOOLS).map(([tool, { args, ratio }]) => [tool, args, ratio] as const),
];
for (const [tool, args, budget] of listed) {
  const molecules = listMolecules(tool);
  const { list, singles } = await listAndSingles(conn, tool, args, molecules);
  const ratio = list / singles;
  const label = tool in LIST_BUDGET_TOOLS ? `≤ ${budget}` : `exempt, ≤ ${budget}`;
  console.log(
    `| ${tool} | ${molecules.length} | ${singles} | ${list} | ${ratio.toFixed(3)} | ` +
      `${label}${ratio <= budget ? "" : " OVER"} |`,
  );
  figures[`${tool} list chars`] = list;
  figures[`${tool} singles chars`] = singles;
}
console.log(
  "\nTokens: gpt-tokenizer 4.0 (o200k_base). Repeated content: strings of 32+ characters and objects or arrays " +
    "of 64+ characters of JSON that occur twice in one result, summed over the drugs (tests/helpers/budget.ts).",
);
previous.save(figures);
