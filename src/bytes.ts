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

/**
 * Base64 of bytes, in slices so that a large picture does not overflow the argument list of `fromCharCode`.
 *
 * @example
 * ```ts
 * toBase64(new Uint8Array([104, 105])); // "aGk="
 * ```
 */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * The bytes of a base64 text; throws on a character outside the alphabet.
 *
 * @example
 * ```ts
 * fromBase64("aGk="); // Uint8Array [104, 105]
 * ```
 */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
