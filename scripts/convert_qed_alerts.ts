/**
 * Converts (or checks) the QED data tables of RDKit's `rdkit/Chem/QED.py` (BSD-3-Clause, Novartis 2009-2017):
 * the 116 structural-alert SMARTS ("unwanted groups" of Bickerton et al., Nat. Chem. 2012, 4, 90, SI), the 11
 * acceptor SMARTS, the ADS parameters and the three weight sets.
 *
 * Usage:
 *   git -C <rdkit checkout> show HEAD:rdkit/Chem/QED.py > /tmp/QED.py
 *   deno run -A scripts/convert_qed_alerts.ts /tmp/QED.py           # print the tables as TypeScript
 *   deno run -A scripts/convert_qed_alerts.ts /tmp/QED.py --check   # compare with src/chem/qed.ts, exit 1 on drift
 *
 * Provenance and licence: docs/data/qed_alerts.md.
 *
 * @module
 */
import {
  QED_ACCEPTOR_SMARTS,
  QED_ADS_PARAMETERS,
  QED_ALERT_SMARTS,
  QED_PROPERTY_NAMES,
  QED_WEIGHTS,
} from "../src/chem/qed.ts";

/** Python string literals ('…' or "…") in `text`, adjacent literals joined by `+` concatenated. */
function pythonStrings(text: string): string[] {
  const out: string[] = [];
  const re = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g;
  let pendingJoin = false;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const between = text.slice(last, m.index);
    pendingJoin = out.length > 0 && /^\s*\+\s*$/.test(between);
    const value = m[1] ?? m[2] ?? "";
    if (pendingJoin) out[out.length - 1] += value;
    else out.push(value);
    last = re.lastIndex;
  }
  return out;
}

/** The body of the Python list assigned to `name` (between its brackets). */
function listBody(source: string, name: string): string {
  const start = source.indexOf(`${name} = [`);
  if (start < 0) throw new Error(`${name} not found in QED.py`);
  let depth = 0;
  for (let i = source.indexOf("[", start); i < source.length; i++) {
    if (source[i] === "[") depth++;
    if (source[i] === "]" && --depth === 0) return source.slice(source.indexOf("[", start) + 1, i);
  }
  throw new Error(`${name}: unbalanced brackets`);
}

/** ADS parameters keyed by property name, read from the `adsParameters` dict. */
function adsParameters(source: string): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  const re = /'(\w+)':\s*ADSparameter\(([^)]*)\)/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    out[m[1] as string] = [...(m[2] as string).matchAll(/=\s*(-?[\d.]+)/g)].map((x) => Number(x[1]));
  }
  return out;
}

/** A weight tuple such as `WEIGHT_MEAN = QEDproperties(0.66, …)`. */
function weights(source: string, name: string): number[] {
  const m = new RegExp(`${name} = QEDproperties\\(([^)]*)\\)`).exec(source);
  if (!m) throw new Error(`${name} not found`);
  return (m[1] as string).split(",").map((x) => Number(x.trim()));
}

function main(): void {
  const [path, flag] = Deno.args;
  if (!path) throw new Error("usage: convert_qed_alerts.ts <QED.py> [--check]");
  const source = Deno.readTextFileSync(path);
  const alerts = pythonStrings(listBody(source, "StructuralAlertSmarts"));
  const acceptors = pythonStrings(listBody(source, "AcceptorSmarts"));
  const ads = adsParameters(source);
  const w = {
    mean: weights(source, "WEIGHT_MEAN"),
    max: weights(source, "WEIGHT_MAX"),
    none: weights(source, "WEIGHT_NONE"),
  };
  if (flag !== "--check") {
    console.log(JSON.stringify({ alerts, acceptors, ads, weights: w }, null, 2));
    return;
  }
  const problems: string[] = [];
  const same = (a: unknown, b: unknown, what: string) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) problems.push(`${what} differs`);
  };
  same([...QED_ALERT_SMARTS], alerts, `alert SMARTS (${alerts.length} in QED.py)`);
  same([...QED_ACCEPTOR_SMARTS], acceptors, "acceptor SMARTS");
  for (const name of QED_PROPERTY_NAMES) {
    const p = QED_ADS_PARAMETERS[name];
    same([p.a, p.b, p.c, p.d, p.e, p.f, p.dmax], ads[name], `ADS parameters of ${name}`);
  }
  for (const set of ["mean", "max", "none"] as const) {
    same(QED_PROPERTY_NAMES.map((n) => QED_WEIGHTS[set][n]), w[set], `weights '${set}'`);
  }
  if (problems.length > 0) {
    console.error(problems.join("\n"));
    Deno.exit(1);
  }
  console.log(
    `QED tables match ${path}: ${alerts.length} alerts, ${acceptors.length} acceptors, 8 ADS rows.`,
  );
}

if (import.meta.main) main();
