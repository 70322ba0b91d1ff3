import * as v from "valibot";
import { ChemError } from "../errors.ts";
import { fitFreeWilson, type FreeWilsonFit, predictFreeWilson } from "../chem/free_wilson.ts";
import { round } from "../chem/identity.ts";
import { withMol } from "../chem/rdkit.ts";
import { decompose, type Decomposition, MAX_CORES } from "../chem/rgroup.ts";
import { ISOLATION_GRACE_S, smilesString } from "./common.ts";
import { textsCost } from "./placement.ts";
import { defineTool, LOCAL_COMPUTATION } from "./tool.ts";

/**
 * Wall-clock bound of one decomposition, s, the longest any tool computes: 1,000 drug-sized molecules over a
 * specific core take a few seconds; a core that matches each molecule thousands of ways is what the bound stops.
 */
export const RGROUP_TIMEOUT_S = 30;
/** Most molecules in the series. */
export const MAX_SERIES = 1_000;
/** Most molecules to predict. */
export const MAX_PREDICT = 100;
/** Decimals of contributions, intercept, r², residuals and predictions. */
const DIGITS = 4;

const list = (max: number, what: string) =>
  v.pipe(
    v.array(smilesString),
    v.minLength(1, `${what} has 1 to ${max} SMILES.`),
    v.maxLength(max, `${what} has 1 to ${max} SMILES.`),
  );

const input = v.pipe(
  v.strictObject({
    smiles_list: v.pipe(
      list(MAX_SERIES, "smiles_list"),
      v.description("Series."),
      v.examples([["Oc1ccccc1C", "Nc1ccccc1C"]]),
    ),
    core: v.optional(v.pipe(
      v.union([smilesString, list(MAX_CORES, "core")]),
      v.description("SMILES, SMARTS, list."),
    )),
    values: v.optional(v.pipe(
      v.array(v.pipe(v.number(), v.finite())),
      v.description("One per molecule."),
    )),
    predict: v.optional(v.pipe(list(MAX_PREDICT, "predict"), v.description("To score."))),
    method: v.optional(v.pipe(v.picklist(["ols", "ridge"]), v.description("ols: min-norm.")), "ols"),
    alpha: v.optional(v.pipe(v.number(), v.minValue(0), v.description("Ridge α.")), 1),
  }),
  v.check(
    (a) => a.values === undefined || a.values.length === a.smiles_list.length,
    "values has one number per molecule of smiles_list.",
  ),
  v.check((a) => a.predict === undefined || a.values !== undefined, "predict needs values to fit."),
);

const cell = v.union([v.string(), v.number(), v.null()]);

/** `rgroup_decompose`: R-group table of a series and its Free–Wilson model. */
export const rgroupDecomposeTool = defineTool({
  name: "rgroup_decompose",
  title: "R-group SAR",
  annotations: LOCAL_COMPUTATION,
  description:
    "R-group table of a series (RDKit; default core: MCS); values: Free–Wilson fit (1964): contributions, " +
    `r², residuals (ridge: FWDecompose); predict: value or reason. ${RGROUP_TIMEOUT_S} s. ` +
    "Errors: INVALID_SMILES, INVALID_SMARTS, MOLECULE_TOO_LARGE, NO_COMMON_SUBSTRUCTURE, COMPUTATION_TIMEOUT.",
  input,
  output: v.object({
    core: v.pipe(v.array(v.string()), v.description("The cores used: as given, or the MCS SMARTS.")),
    core_from_mcs: v.pipe(v.boolean(), v.description("True when the core is the series' MCS.")),
    columns: v.pipe(v.array(v.string()), v.description("index, Core, R1…, then residual with values.")),
    rows: v.pipe(v.array(v.array(cell)), v.description("One per matched molecule; R groups as SMILES.")),
    same: v.optional(v.pipe(
      v.record(v.string(), v.nullable(v.string())),
      v.description("Columns equal in every row, said once."),
    )),
    unmatched: v.pipe(v.array(v.number()), v.description("Indices no core matched.")),
    fit: v.optional(v.pipe(
      v.object({
        method: v.pipe(v.string(), v.description("ols or ridge.")),
        molecules: v.pipe(v.number(), v.description("Rows fitted.")),
        intercept: v.pipe(v.number(), v.description("The constant term.")),
        r2: v.pipe(v.number(), v.description("Coefficient of determination on the rows fitted.")),
        contributions: v.pipe(
          v.record(v.string(), v.record(v.string(), v.number())),
          v.description("Per column, substituent SMILES → contribution."),
        ),
      }),
      v.description("The Free–Wilson model, with values."),
    )),
    predictions: v.optional(v.pipe(
      v.array(v.object({
        smiles: v.pipe(v.string(), v.description("As given.")),
        value: v.optional(v.pipe(v.number(), v.description("The model's value."))),
        reason: v.optional(v.pipe(v.string(), v.description("Why no value."))),
      })),
      v.description("One per predict SMILES."),
    )),
  }),
  placement: {
    where: "pool",
    deadlineMs: () => (RGROUP_TIMEOUT_S + ISOLATION_GRACE_S) * 1000,
    cost: ({ smiles_list, core, predict }) => textsCost(smiles_list, core, predict),
  },
  run: ({ smiles_list, core, values, predict = [], method, alpha }) => {
    const cores = core === undefined ? undefined : typeof core === "string" ? [core] : core;
    const problems = predict.map(unreadable);
    const readable = predict.filter((_, i) => problems[i] === undefined);
    const d = decompose([...smiles_list, ...readable], cores, {
      deadline: Date.now() + RGROUP_TIMEOUT_S * 1000,
      mcsOver: smiles_list.length,
    });
    const training = d.rows.filter((r) => r.index < smiles_list.length);
    const fit = values ? fitTraining(d.columns, training, values, method, alpha) : undefined;
    return {
      core: [...d.cores],
      core_from_mcs: d.mcs,
      ...table(d.columns, training, fit),
      unmatched: d.unmatched.filter((i) => i < smiles_list.length),
      ...(fit ? { fit: shownFit(fit, training.length) } : {}),
      ...(fit && predict.length > 0
        ? { predictions: predictions(fit, d, smiles_list.length, predict, problems) }
        : {}),
    };
  },
});

type Row = Decomposition["rows"][number];

function fitTraining(
  columns: readonly string[],
  training: readonly Row[],
  values: readonly number[],
  method: "ols" | "ridge",
  alpha: number,
): FreeWilsonFit {
  if (training.length < 2) {
    throw new ChemError(
      "NO_COMMON_SUBSTRUCTURE",
      `${training.length} molecule(s) match the core; a Free–Wilson fit needs at least 2.`,
      { matched: training.length },
    );
  }
  return fitFreeWilson(
    columns,
    training.map((r) => r.groups),
    training.map((r) => values[r.index]!),
    method,
    alpha,
  );
}

/**
 * The rows as a table: columns once, one array per matched molecule. A column equal in every row (the core, for
 * one core) is said once in `same` instead: on a 1,000-molecule series it would be a quarter of the answer.
 */
function table(columns: readonly string[], training: readonly Row[], fit: FreeWilsonFit | undefined) {
  const constant = columns.map((_, c) =>
    training.length >= 2 && training.every((r) => r.groups[c] === training[0]!.groups[c])
  );
  const kept = columns.filter((_, c) => !constant[c]);
  const same = Object.fromEntries(
    columns.flatMap((name, c) => constant[c] ? [[name, training[0]!.groups[c] ?? null]] : []),
  );
  return {
    columns: ["index", ...kept, ...(fit ? ["residual"] : [])],
    rows: training.map((r, i) => [
      r.index,
      ...r.groups.filter((_, c) => !constant[c]),
      ...(fit ? [round(fit.residuals[i]!, DIGITS)] : []),
    ]),
    ...(Object.keys(same).length > 0 ? { same } : {}),
  };
}

/** Why RDKit cannot read a SMILES to predict, or undefined when it can: such a one stays out of the decomposition. */
function unreadable(smiles: string): string | undefined {
  try {
    withMol(smiles, () => undefined);
    return undefined;
  } catch (error) {
    if (error instanceof ChemError) return error.message;
    throw error;
  }
}

function shownFit(fit: FreeWilsonFit, molecules: number) {
  const contributions = Object.fromEntries(
    Object.entries(fit.contributions).map(([c, subs]) => [
      c,
      Object.fromEntries(Object.entries(subs).map(([s, x]) => [s, round(x, DIGITS)])),
    ]),
  );
  return {
    method: fit.method,
    molecules,
    intercept: round(fit.intercept, DIGITS),
    r2: round(fit.r2, DIGITS),
    contributions,
  };
}

function predictions(
  fit: FreeWilsonFit,
  d: Decomposition,
  offset: number,
  predict: readonly string[],
  problems: readonly (string | undefined)[],
) {
  const byIndex = new Map(d.rows.map((r) => [r.index, r.groups]));
  let next = offset;
  return predict.map((smiles, i) => {
    const problem = problems[i];
    if (problem !== undefined) return { smiles, reason: problem };
    const row = byIndex.get(next++);
    if (!row) return { smiles, reason: "no core match" };
    const p = predictFreeWilson(fit, d.columns, row);
    return "value" in p ? { smiles, value: round(p.value, DIGITS) } : { smiles, reason: p.reason };
  });
}
