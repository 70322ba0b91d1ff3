/**
 * The stages of the test command and the small runner that follows a plan of them (scripts/test_plan.ts). A
 * stage is data: a name, the stages it waits for, and what it runs (commands one after another, or test files
 * some at a time). Stages whose predecessors have ended run at the same time, so the two cores stay busy with
 * useful work; a loaded stage has CPU-bound programs (scripts/load.ts) top the machine up to a given number of
 * busy programs per core while it runs, counting the CPU-bound test files running beside it as such.
 *
 * Output: one line per command and per file as it ends; the whole output of what failed (of everything with
 * `verbose`), never interleaved.
 *
 * @module
 */
import { spawn } from "node:child_process";
import process from "node:process";
import { fileLine, type Outcome, single, sum } from "./test_report.ts";
import { runFiles, type TestFile } from "./test_files.ts";
import { forgetGroup, killGroup, trackGroup } from "./test_run_dir.ts";
import { type Load, loadCount, startLoad } from "./load.ts";

/** What every stage runs with. */
export interface StageContext {
  /** The environment of every child (run directory, notices, colours). */
  readonly env: Readonly<Record<string, string>>;
  /** A fresh path for a JUnit report. */
  readonly reportPath: () => string;
  /** Print the output of what passed too. */
  readonly verbose: boolean;
}

/** One stage of a plan. */
export interface Stage {
  /** Printed in its lines and the closing time table; what `after` and `needs` refer to. */
  readonly name: string;
  /** Stages that must have ended (passed or not) before this one starts. */
  readonly after?: readonly string[];
  /** Stages that must have passed: when one failed, this one is not run (that failure is in the verdict). */
  readonly needs?: readonly string[];
  /** CPU-bound programs per core kept running while this stage runs (the busy machine), if any. */
  readonly loadPerCore?: number;
  /** CPU-bound itself (a check, a build): counts towards a loaded stage's load. */
  readonly cpuBound?: boolean;
  readonly run: (context: StageContext, load: LoadCounter) => Promise<Outcome>;
}

/** A command of a stage: what it is called in the lines and the verdict, and its command line. */
export interface Command {
  readonly label: string;
  readonly cmd: string;
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** Checks what it printed, beyond its exit status; the failure's reason, or undefined. */
  readonly expect?: (code: number, out: string) => string | undefined;
}

/** The time limit of a single command of the run (a check, a build, `npm pack`), seconds. */
const COMMAND_LIMIT_S = 900;

/**
 * Runs a command to its end in a process group of its own (killed with it after {@link COMMAND_LIMIT_S}, exit
 * 124 as `timeout` gives), its output kept.
 */
export function runCommand(command: Command, env: Readonly<Record<string, string>>) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    const child = spawn(command.cmd, [...command.args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...env, ...command.env },
      detached: true,
    });
    if (child.pid !== undefined) trackGroup(child.pid);
    let out = "";
    const keep = (chunk: Buffer) => (out += chunk.toString());
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      if (child.pid !== undefined) killGroup(child.pid);
    }, COMMAND_LIMIT_S * 1000);
    const end = (code: number) => {
      clearTimeout(timer);
      if (child.pid !== undefined) forgetGroup(child.pid);
      resolve({ code: killed ? 124 : code, out });
    };
    // Whatever it left running goes with it, so its pipes close and "close" comes.
    child.on("exit", () => child.pid !== undefined && killGroup(child.pid));
    child.on("close", (code) => end(code ?? 1));
    child.on("error", (error) => {
      out += String(error);
      end(1);
    });
  });
}

/** A stage that runs commands one after another, each one outcome. */
export function commandStage(
  name: string,
  commands: readonly Command[],
  more: Omit<Stage, "name" | "run"> = {},
): Stage {
  return {
    name,
    cpuBound: true,
    ...more,
    run: async (context) => {
      const outcomes: Outcome[] = [];
      for (const command of commands) {
        const started = performance.now();
        const { code, out } = await runCommand(command, context.env);
        const reason = code === 0 ? command.expect?.(code, out) : `exit ${code}`;
        const outcome = single(`${name} › ${command.label}${reason ? ` (${reason})` : ""}`, !reason);
        const line = fileLine("run", command.label, (performance.now() - started) / 1000, outcome);
        if (reason || context.verbose) process.stdout.write(out.endsWith("\n") || !out ? out : `${out}\n`);
        console.log(line);
        outcomes.push(outcome);
      }
      return sum(outcomes);
    },
  };
}

/** A stage that runs test files, `concurrency` at once, longest first as given. */
export function fileStage(
  name: string,
  files: () => TestFile[],
  concurrency: number,
  more: Omit<Stage, "name" | "run"> = {},
): Stage {
  return {
    name,
    ...more,
    run: (context, load) =>
      runFiles(files(), {
        concurrency,
        env: context.env,
        reportPath: context.reportPath,
        whole: true,
        failuresOnly: !context.verbose,
        onStart: (file) => file.cpuBound && load.change(1),
        onEnd: (file) => file.cpuBound && load.change(-1),
      }),
  };
}

/** Tells the loaded stages how many CPU-bound things run besides their spinning programs. */
export interface LoadCounter {
  change(by: number): void;
}

/**
 * Keeps `loadCount(perCore)` programs busy while a loaded stage runs: the CPU-bound stages and files running at
 * the time count, spinning programs make up the rest.
 */
function loadKeeper(): LoadCounter & { loaded(perCore: number, on: boolean): void; stop(): Promise<void> } {
  let busy = 0;
  let target = 0;
  let spinners: Load | undefined;
  const update = () => {
    const wanted = Math.max(0, target - busy);
    if (wanted > 0 && !spinners) spinners = startLoad(0);
    spinners?.set(wanted);
  };
  return {
    change(by) {
      busy += by;
      update();
    },
    loaded(perCore, on) {
      target = on ? loadCount(perCore) : 0;
      update();
    },
    stop: async () => await spinners?.stop(),
  };
}

/** Whole seconds since `started` (a `performance.now()`). */
export function secondsSince(started: number): string {
  return ((performance.now() - started) / 1000).toFixed(0);
}

/**
 * Runs a plan: each stage once those it waits for have ended, all others at the same time. The stages' outcomes
 * summed, and a line per stage of how long it took (CI has a time budget, and this shows where it goes).
 */
export async function runPlan(
  plan: readonly Stage[],
  context: StageContext,
): Promise<{ outcome: Outcome; timings: string[] }> {
  const ended = new Map<string, Promise<Outcome>>();
  const timings: string[] = [];
  const load = loadKeeper();
  for (const stage of plan) {
    const waits = [...(stage.after ?? []), ...(stage.needs ?? [])].map((name) => {
      const promise = ended.get(name);
      if (!promise) throw new Error(`stage "${stage.name}" waits for "${name}", which no earlier stage is`);
      return promise.then((outcome) => ({ name, outcome }));
    });
    ended.set(
      stage.name,
      Promise.all(waits).then(async (before) => {
        const failed = before.filter((b) => stage.needs?.includes(b.name) && b.outcome.failed > 0);
        if (failed.length > 0) {
          console.log(`\n== ${stage.name}: not run, ${failed.map((f) => f.name).join(", ")} failed`);
          return sum([]);
        }
        console.log(`\n== ${stage.name}: started`);
        const started = performance.now();
        if (stage.loadPerCore) load.loaded(stage.loadPerCore, true);
        if (stage.cpuBound) load.change(1);
        try {
          const outcome = await stage.run(context, load).catch((error: unknown) =>
            single(`${stage.name}: ${error instanceof Error ? error.message : String(error)}`, false)
          );
          const time = secondsSince(started);
          console.log(`== ${stage.name}: ${outcome.passed} passed, ${outcome.failed} failed (${time} s)`);
          timings.push(`  ${time.padStart(4)} s  ${stage.name}`);
          return outcome;
        } finally {
          if (stage.cpuBound) load.change(-1);
          if (stage.loadPerCore) load.loaded(0, false);
        }
      }),
    );
  }
  try {
    const outcome = sum(await Promise.all(plan.map((stage) => ended.get(stage.name)!)));
    return { outcome, timings };
  } finally {
    await load.stop();
  }
}
