/**
 * The records of a library file: SMILES files (`SMILES [id]` per line) and SD files (MOL blocks ended by
 * `$$$$`, the id from the title line or a named data field). Each record's size is bounded, so a hostile file
 * (a 1 MB line, a record that never ends) costs bounded memory; what cannot be a record is reported, not kept.
 *
 * @module
 */
import { type Line, lines } from "./lines.ts";

/** The longest line kept: far beyond any SMILES the tools accept (20,000 characters). */
export const MAX_LINE_BYTES = 65_536;
/** The most lines of one SD record: a 999-atom V2000 block with its bonds and data fields is a few thousand. */
export const MAX_SD_RECORD_LINES = 20_000;
/** The most characters of one SD record (its lines bounded alone would allow 1.3 GB). */
export const MAX_SD_RECORD_CHARS = 2_000_000;

/** One molecule's text as the file gives it, or why a record is not one. */
export type LibraryRecord =
  | {
    readonly kind: "molecule";
    /** A SMILES string or a MOL block. */
    readonly text: string;
    readonly id: string;
    /** Where the record starts: `line N`. */
    readonly where: string;
  }
  | { readonly kind: "unreadable"; readonly where: string; readonly reason: string };

/** Which reader a file needs. */
export type LibraryFormat = "smiles" | "sdf";

/**
 * The reader for `path` by its extension: `.sdf`, `.sd` and `.mol` (optionally `.gz`) are SD files; anything
 * else is read as SMILES.
 */
export function formatOf(path: string): LibraryFormat {
  return /\.(sdf|sd|mol)(\.gz)?$/i.test(path) ? "sdf" : "smiles";
}

/**
 * The records of a SMILES file: one per non-blank line, `SMILES` then optionally whitespace and an id (the
 * rest of the line); lines starting with `#` and a first line whose first word is `smiles` (a header) are skipped.
 * A record without an id is named by its line.
 */
export async function* smilesRecords(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<LibraryRecord> {
  for await (const batch of lines(chunks, MAX_LINE_BYTES)) {
    for (const line of batch) {
      const where = `line ${line.number}`;
      if (line.kind === "too_long") {
        yield { kind: "unreadable", where, reason: `longer than ${MAX_LINE_BYTES} bytes` };
        continue;
      }
      const text = line.text.trim();
      if (text === "" || text.startsWith("#")) continue;
      const split = /\s/.exec(text);
      const smiles = split ? text.slice(0, split.index) : text;
      if (line.number === 1 && smiles.toLowerCase() === "smiles") continue;
      const id = split ? text.slice(split.index).trim() : "";
      yield { kind: "molecule", text: smiles, id: id || where, where };
    }
  }
}

/**
 * The records of an SD file. The id is the data field `idField` when given and present, else the title line,
 * else the record's first line number.
 */
export async function* sdRecords(
  chunks: AsyncIterable<Uint8Array>,
  idField?: string,
): AsyncGenerator<LibraryRecord> {
  let body: string[] = [];
  let chars = 0;
  let start = 1;
  let broken: string | undefined;
  const close = (line: Line): LibraryRecord | undefined => {
    const where = `line ${start}`;
    const record: LibraryRecord | undefined = broken !== undefined
      ? { kind: "unreadable", where, reason: broken }
      : body.some((text) => text.trim() !== "")
      ? sdMolecule(body, where, idField)
      : undefined;
    body = [];
    chars = 0;
    broken = undefined;
    start = line.number + 1;
    return record;
  };
  let last: Line | undefined;
  for await (const batch of lines(chunks, MAX_LINE_BYTES)) {
    for (const line of batch) {
      last = line;
      if (line.kind === "text" && line.text.startsWith("$$$$")) {
        const record = close(line);
        if (record) yield record;
        continue;
      }
      if (broken !== undefined) continue;
      if (line.kind === "too_long") broken = `line ${line.number} longer than ${MAX_LINE_BYTES} bytes`;
      else if (body.length >= MAX_SD_RECORD_LINES) broken = `more than ${MAX_SD_RECORD_LINES} lines`;
      else if ((chars += line.text.length) > MAX_SD_RECORD_CHARS) {
        broken = `more than ${MAX_SD_RECORD_CHARS} characters`;
      } else body.push(line.text);
      if (broken !== undefined) body = [];
    }
  }
  if (last) {
    const record = close(last);
    if (record) yield record;
  }
}

/** A record's MOL block (up to `M  END`) and its id. */
function sdMolecule(body: readonly string[], where: string, idField: string | undefined): LibraryRecord {
  const end = body.findIndex((text) => text.startsWith("M  END"));
  if (end < 0) return { kind: "unreadable", where, reason: "no 'M  END' line" };
  const title = body[0]!.trim();
  const field = idField === undefined ? undefined : dataField(body.slice(end + 1), idField);
  return {
    kind: "molecule",
    text: body.slice(0, end + 1).join("\n") + "\n",
    id: field || title || where,
    where,
  };
}

/** The first line of the data field `name` (`> <name>` header), if the record has it. */
function dataField(data: readonly string[], name: string): string | undefined {
  const at = data.findIndex((text) => text.startsWith(">") && text.includes(`<${name}>`));
  return at < 0 ? undefined : data[at + 1]?.trim();
}
