/**
 * A short siege (tests/helpers/siege.ts): every attack class at once for 20 s beside an honest client. It runs
 * once per test run, under Node: the suite's other files already cover each class on every runtime, and Node is
 * where the flood and the memory classes hurt most; the full runs on all three are bench/siege_bench.ts.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import process from "node:process";
import { IS_DENO, serverCommand } from "../helpers/process.ts";
import { startHostileLookup } from "../helpers/lookup_stub.ts";
import { siege } from "../helpers/siege.ts";

const SECONDS = 20;

function skipReason(): string | false {
  if (IS_DENO) return "the short siege runs under Node only";
  if (process.env.CHEM_MCP_SERVER_CMD) return "the short siege runs against the Node build only";
  if (!existsSync("/proc/self/stat")) return "needs Linux /proc to read memory";
  return false;
}

test(`siege: an honest client keeps >= 95% success through ${SECONDS} s of every attack at once`, {
  skip: skipReason(),
  timeout: 120_000,
}, async () => {
  const lookup = await startHostileLookup();
  const [cmd, args] = serverCommand();
  const figures = await siege({ command: [cmd, ...args], lookupTemplate: lookup.template, seconds: SECONDS });
  console.log(Object.entries(figures).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(", "));
  assert.equal(figures.server_alive, 1, "the server is still running");
  assert.ok(figures.honest_success_pct! >= 95, `honest success ${figures.honest_success_pct}%`);
  assert.equal(
    figures.hostile_typed_pct,
    100,
    "every hostile call got a result, a typed error or the concurrency limit's 503",
  );
  assert.equal(
    figures.oversized_answers_small_pct,
    100,
    "every oversized request got a 4xx, or the concurrency limit's 503 with Retry-After, under 64 KiB",
  );
  // The limit's 503 is a correct refusal on a full server, but most requests of each class must have met the
  // server itself.
  for (
    const [busy, all] of [["oversized_busy", "oversized_requests"], ["hostile_busy", "hostile_calls"], [
      "lookups_busy",
      "lookups",
    ]] as const
  ) {
    assert.ok(
      figures[busy]! * 2 < figures[all]!,
      `${figures[busy]} of ${figures[all]} ${all} met a full server`,
    );
  }
  assert.equal(figures.ids_exact_pct, 100);
  assert.equal(figures.lookups_clean_pct, 100);
  assert.deepEqual(lookup.elsewhere, [], "the other origin was asked");
  assert.ok(figures.flood_mib_sent! > 128, `the flood ran (${figures.flood_mib_sent} MiB)`);
  // Worker threads replaced again and again leave a high-water mark (docs/security.md): 180 s sieges end below
  // 500 MiB. A buffered flood would cost GiBs.
  assert.ok(figures.rss_peak_mib! < 640, `process tree peaked at ${figures.rss_peak_mib} MiB`);
  assert.ok(
    figures.rss_after_mib! - figures.rss_before_mib! < 320,
    `RSS ${figures.rss_before_mib} → ${figures.rss_after_mib} MiB`,
  );
});
