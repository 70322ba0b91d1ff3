/** What an RDKit SVG depiction shows highlighted, read from the drawing itself (src/chem/depict.ts); calls of it. */
import { type LineClient, runServer } from "./process.ts";
import { modern } from "./protocol.ts";

/** The server arguments that list `depict` (an extra tool). */
export const DEPICT_ARGS = ["--tools", "all"];

/** Why a suite of `depict` cannot run on the server under test (one whose --tools does not list it), or false. */
export async function depictUnavailable(): Promise<string | false> {
  const probe = await runServer(DEPICT_ARGS, `${JSON.stringify(modern("tools/list"))}\n`);
  if (probe.code === 2) return "this build has no --tools option";
  return probe.stdout.includes('"name":"depict"') ? false : "--tools all does not list depict";
}

const ascending = (values: Iterable<number>) => [...new Set(values)].sort((a, b) => a - b);

/** Atoms drawn with a highlight: RDKit paints each as a filled ellipse of class `atom-N`. */
export function drawnAtoms(svg: string): number[] {
  return ascending([...svg.matchAll(/<ellipse [^>]*class='atom-(\d+)'/g)].map((m) => Number(m[1])));
}

/**
 * Bonds drawn with a highlight: a band of class `bond-N` filled with the highlight colour (a plain bond is a
 * stroke with `fill:none`, a wedge is filled with its atoms' colours). The SMARTS highlight's colour by default.
 */
export function drawnBonds(svg: string, colour = "#FF8C8C"): number[] {
  const band = new RegExp(`<path class='bond-(\\d+) [^']*' d='[^']*' style='fill:${colour};`, "g");
  return ascending([...svg.matchAll(band)].map((m) => Number(m[1])));
}

/**
 * One `depict` call over a server process, answered with the whole response. SERVER_BUSY says no worker was free
 * in time (a cold pool on a loaded machine), not what depict did with the input, so the call is made again after
 * the wait it names, up to 10 times.
 */
export async function callDepict(client: LineClient, args: Record<string, unknown>): Promise<unknown> {
  for (let attempt = 0;; attempt++) {
    const answer = await client.request(modern("tools/call", { name: "depict", arguments: args }), 90_000);
    const result = answer.result as {
      structuredContent?: { error?: { code: string; details?: Record<string, number> } };
    };
    const error = result?.structuredContent?.error;
    if (error?.code !== "SERVER_BUSY" || attempt === 10) return answer;
    await new Promise((resolve) => setTimeout(resolve, error.details?.retry_after_ms ?? 1000));
  }
}
