/**
 * The one command-line parser of every entry point: the server's options (src/cli.ts) and the web
 * application's (src/webapp/args.ts). Built on `node:util` `parseArgs`, which Deno and Node both provide
 * (`@std/cli` is not reachable from this build network, see docs/decisions/toolchain.md). Pure: it returns what it found or
 * what is wrong, and never prints or exits.
 *
 * @module
 */
import { parseArgs } from "node:util";

/** How one option is written on the command line. */
export interface OptionSpec {
  readonly type: "string" | "boolean";
  /** May be given more than once; its value is then the list of every occurrence. */
  readonly multiple?: boolean;
  /** A one-letter alias (`-h` for `--help`). */
  readonly short?: string;
}

/** The values found, by long option name; an option not given is absent. */
export type OptionValues = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

/** The outcome of {@link parseOptions}. */
export type ParsedOptions =
  | { readonly ok: true; readonly values: OptionValues }
  | { readonly ok: false; readonly message: string };

/**
 * Parses `--name value`, `--name=value` and boolean `--flag` options; positional arguments and options not in
 * `spec` are refused.
 *
 * @example
 * ```ts
 * parseOptions(["--port=0"], { port: { type: "string" } }); // { ok: true, values: { port: "0" } }
 * parseOptions(["--prot", "1"], { port: { type: "string" } }).ok; // false
 * ```
 */
export function parseOptions(
  argv: readonly string[],
  spec: Readonly<Record<string, OptionSpec>>,
): ParsedOptions {
  try {
    const { values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: { ...spec },
    });
    return { ok: true, values };
  } catch (error) {
    // parseArgs explains itself over several lines; the first one names the option and the problem.
    return { ok: false, message: (error instanceof Error ? error.message : String(error)).split("\n")[0]! };
  }
}

/**
 * A whole number option from `min` to `max`: `fallback` when absent, `undefined` when malformed or out of range.
 *
 * @example
 * ```ts
 * integerOption("8080", 3000, 0, 65535); // 8080
 * integerOption(undefined, 3000, 0, 65535); // 3000
 * integerOption("-1", 3000, 0, 65535); // undefined
 * ```
 */
export function integerOption(raw: unknown, fallback: number, min: number, max: number): number | undefined {
  if (raw === undefined) return fallback;
  if (typeof raw !== "string" || !/^\d+$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= min && n <= max ? n : undefined;
}
