/**
 * Byte helpers shared by the transports, the name lookup and the web application. Runtime-neutral: web streams
 * and typed arrays only.
 *
 * @module
 */

/**
 * Joins byte chunks into one array (the one chunk itself when there is only one, so nothing is copied).
 *
 * @example
 * ```ts
 * concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])]); // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let length = 0;
  for (const part of parts) length += part.byteLength;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/**
 * Reads a whole stream, counting while it streams so that a sender without (or lying about) a declared length
 * cannot make us hold more than `limit` bytes. Returns `undefined`, after cancelling the stream, once the limit
 * is passed.
 *
 * @example
 * ```ts
 * const bytes = await readAtMost(new Response("hello").body!, 1024); // 5 bytes
 * await readAtMost(new Response("hello").body!, 4); // undefined
 * ```
 */
export async function readAtMost(
  stream: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return concatBytes(chunks);
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
}
