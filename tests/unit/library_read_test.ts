/** Reading library files: lines with bounded memory, SMILES and SD records, hostile files. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { type Line, lines } from "../../src/chem/library/lines.ts";
import {
  formatOf,
  type LibraryRecord,
  MAX_LINE_BYTES,
  MAX_SD_RECORD_LINES,
  sdRecords,
  smilesRecords,
} from "../../src/chem/library/records.ts";

const encoder = new TextEncoder();

/** `text` as a stream of chunks of `size` bytes (a line may span chunks). */
async function* chunked(text: string | Uint8Array, size = 7): AsyncGenerator<Uint8Array> {
  const bytes = typeof text === "string" ? encoder.encode(text) : text;
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function collectLines(items: AsyncIterable<Line[]>): Promise<Line[]> {
  return (await collect(items)).flat();
}

test("lines split across chunks, CRLF and a last line without newline", async () => {
  const got = await collectLines(lines(chunked("CCO a\r\nc1ccccc1\n\nN"), 100));
  assert.deepEqual(got, [
    { kind: "text", number: 1, text: "CCO a" },
    { kind: "text", number: 2, text: "c1ccccc1" },
    { kind: "text", number: 3, text: "" },
    { kind: "text", number: 4, text: "N" },
  ]);
});

test("a line over the limit is dropped as it streams, and the next line is read", async () => {
  const got = await collectLines(lines(chunked(`${"C".repeat(50)}\nCCO\n`, 8), 20));
  assert.deepEqual(got, [{ kind: "too_long", number: 1 }, { kind: "text", number: 2, text: "CCO" }]);
});

test("SMILES records: ids, a header, comments, blank lines; a record without id is named by its line", async () => {
  const got = await collect(
    smilesRecords(chunked("SMILES id\nCCO ethanol\n# note\n\nc1ccccc1\tbenzene ring\nN\n")),
  );
  assert.deepEqual(got, [
    { kind: "molecule", text: "CCO", id: "ethanol", where: "line 2" },
    { kind: "molecule", text: "c1ccccc1", id: "benzene ring", where: "line 5" },
    { kind: "molecule", text: "N", id: "line 6", where: "line 6" },
  ]);
});

test("a 1 MB SMILES line is reported, not kept", async () => {
  const got = await collect(smilesRecords(chunked(`CCO a\n${"C".repeat(1 << 20)} big\nCCN b\n`, 65_536)));
  assert.deepEqual(got.map((r) => r.kind), ["molecule", "unreadable", "molecule"]);
  assert.equal((got[1] as { reason: string }).reason, `longer than ${MAX_LINE_BYTES} bytes`);
});

test("10 million blank lines cost no record and little time", async () => {
  const blank = new Uint8Array(10_000_000).fill(10);
  const started = Date.now();
  const got = await collect(smilesRecords((async function* () {
    for (let at = 0; at < blank.length; at += 1 << 20) yield blank.subarray(at, at + (1 << 20));
    yield encoder.encode("CCO last\n");
  })()));
  assert.deepEqual(got, [{ kind: "molecule", text: "CCO", id: "last", where: "line 10000001" }]);
  assert.ok(Date.now() - started < 20_000, `${Date.now() - started} ms`);
});

test("binary garbage gives records RDKit will refuse, never an unbounded one", async () => {
  let seed = 7;
  const garbage = Uint8Array.from(
    { length: 3_000_000 },
    () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24,
  );
  let records = 0;
  for await (const record of smilesRecords(chunked(garbage, 65_536))) {
    records++;
    if (record.kind === "molecule") assert.ok(record.text.length <= MAX_LINE_BYTES);
  }
  assert.ok(records > 0);
});

const MOL = (title: string, counts = "  2  1  0  0  0  0  0  0  0  0999 V2000") =>
  `${title}\n  test\n\n${counts}\n` +
  "    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n" +
  "    1.5000    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0\n" +
  "  1  2  1  0\nM  END\n";

test("SD records: the title or a named field as id, data fields left out of the MOL block", async () => {
  const file = `${MOL("methanol")}> <CODE>\nM-1\n\n$$$$\n${MOL("")}$$$$\n`;
  const byTitle = await collect(sdRecords(chunked(file)));
  assert.deepEqual(byTitle.map((r) => [r.kind, (r as { id?: string }).id, r.where]), [
    ["molecule", "methanol", "line 1"],
    ["molecule", "line 13", "line 13"],
  ]);
  assert.ok((byTitle[0] as { text: string }).text.endsWith("M  END\n"));
  const byField = await collect(sdRecords(chunked(file), "CODE"));
  assert.deepEqual(byField.map((r) => (r as { id: string }).id), ["M-1", "line 13"]);
});

test("SD records that lie: no M  END, an endless record; the next record is still read", async () => {
  const endless = Array.from({ length: MAX_SD_RECORD_LINES + 5 }, () => "x").join("\n");
  const file = `broken\n\n\n  999999  0\n$$$$\n${endless}\n$$$$\n${MOL("ok")}$$$$\n`;
  const got: LibraryRecord[] = await collect(sdRecords(chunked(file, 4096)));
  assert.deepEqual(got.map((r) => r.kind), ["unreadable", "unreadable", "molecule"]);
  assert.match((got[1] as { reason: string }).reason, /more than 20000 lines/);
});

test("the reader follows the file's extension", () => {
  assert.equal(formatOf("/data/deck.sdf.gz"), "sdf");
  assert.equal(formatOf("deck.SD"), "sdf");
  assert.equal(formatOf("deck.smi.gz"), "smiles");
  assert.equal(formatOf("deck.txt"), "smiles");
});
