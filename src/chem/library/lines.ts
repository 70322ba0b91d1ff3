/**
 * Lines of a byte stream with bounded memory: a line longer than the limit is dropped as it streams (only its
 * number is kept), so a file of one 2 GB line costs no more than a file of short ones.
 *
 * @module
 */

/** One line of text, or the number of a line that was too long to keep. */
export type Line =
  | { readonly kind: "text"; readonly number: number; readonly text: string }
  | { readonly kind: "too_long"; readonly number: number };

/**
 * The lines of `chunks` (split on `\n`, a trailing `\r` removed), numbered from 1, decoded as UTF-8 (invalid
 * bytes become U+FFFD), in batches: the lines each chunk completes (one await per chunk, not per line, so ten
 * million blank lines take a second, not a minute).
 *
 * @example
 * ```ts
 * for await (const batch of lines(stream, 65_536)) for (const line of batch) console.log(line);
 * ```
 */
export async function* lines(chunks: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Line[]> {
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  let held = 0;
  let tooLong = false;
  let number = 0;
  const finish = (): Line => {
    number++;
    if (tooLong) return { kind: "too_long", number };
    const bytes = parts.length === 1 ? parts[0]! : joined(parts, held);
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 13 ? bytes.length - 1 : bytes.length;
    return { kind: "text", number, text: decoder.decode(bytes.subarray(0, end)) };
  };
  const keep = (piece: Uint8Array) => {
    if (tooLong) return;
    if (held + piece.length > maxBytes) {
      tooLong = true;
      parts = [];
      held = 0;
      return;
    }
    if (piece.length > 0) parts.push(piece.slice());
    held += piece.length;
  };
  for await (const chunk of chunks) {
    const batch: Line[] = [];
    let start = 0;
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, start)) {
      if (at === start && held === 0 && !tooLong) {
        // A blank line, the bulk of a padded or hostile file: no bytes to copy or decode.
        batch.push({ kind: "text", number: ++number, text: "" });
        start = at + 1;
        continue;
      }
      keep(chunk.subarray(start, at));
      batch.push(finish());
      parts = [];
      held = 0;
      tooLong = false;
      start = at + 1;
    }
    keep(chunk.subarray(start));
    if (batch.length > 0) yield batch;
  }
  if (held > 0 || tooLong) yield [finish()];
}

function joined(parts: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
