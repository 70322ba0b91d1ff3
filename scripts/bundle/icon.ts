/**
 * The bundle's icon, drawn here rather than kept as a binary file: a benzene ring (a hexagon with an inner
 * circle for the aromatic sextet) in white on a rounded teal square, 512 × 512 (the size Claude Desktop
 * recommends), RGBA PNG. Each pixel is the
 * coverage of 4 × 4 samples, so edges are smooth without any image library.
 *
 * @module
 */
import { deflateSync } from "node:zlib";

/** Width and height of the icon in pixels. */
export const ICON_SIZE = 512;
/** The drawing is laid out on a 256-unit square and scaled to the icon. */
const UNIT = ICON_SIZE / 256;

const TEAL = [0x0f, 0x76, 0x6e] as const;
const SAMPLES = 4;

/** Distance from (x, y) to the segment from (ax, ay) to (bx, by). */
function segmentDistance(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - ax - t * dx, y - ay - t * dy);
}

/** Corners of the ring, pointy side up, centred in the icon. */
function hexagon(radius: number): [number, number][] {
  const c = ICON_SIZE / 2;
  return Array.from({ length: 6 }, (_, i) => {
    const angle = Math.PI / 2 + (i * Math.PI) / 3;
    return [c + radius * Math.cos(angle), c - radius * Math.sin(angle)];
  });
}

const RING = hexagon(78 * UNIT);

/** True inside the rounded square background. */
function inBackground(x: number, y: number): boolean {
  const r = 48 * UNIT;
  const qx = Math.max(Math.abs(x - ICON_SIZE / 2) - (ICON_SIZE / 2 - r), 0);
  const qy = Math.max(Math.abs(y - ICON_SIZE / 2) - (ICON_SIZE / 2 - r), 0);
  return Math.hypot(qx, qy) <= r;
}

/** True on a bond of the ring or on the aromatic circle. */
function inDrawing(x: number, y: number): boolean {
  for (let i = 0; i < 6; i++) {
    const [ax, ay] = RING[i]!;
    const [bx, by] = RING[(i + 1) % 6]!;
    if (segmentDistance(x, y, ax, ay, bx, by) <= 7 * UNIT) return true;
  }
  return Math.abs(Math.hypot(x - ICON_SIZE / 2, y - ICON_SIZE / 2) - 42 * UNIT) <= 5.5 * UNIT;
}

/** One pixel as RGBA. */
function pixel(px: number, py: number): [number, number, number, number] {
  let background = 0;
  let drawing = 0;
  for (let sy = 0; sy < SAMPLES; sy++) {
    for (let sx = 0; sx < SAMPLES; sx++) {
      const x = px + (sx + 0.5) / SAMPLES;
      const y = py + (sy + 0.5) / SAMPLES;
      if (inBackground(x, y)) {
        background++;
        if (inDrawing(x, y)) drawing++;
      }
    }
  }
  if (background === 0) return [0, 0, 0, 0];
  const white = drawing / background;
  const mix = (c: number) => Math.round(c + (255 - c) * white);
  return [mix(TEAL[0]), mix(TEAL[1]), mix(TEAL[2]), Math.round((255 * background) / SAMPLES ** 2)];
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A PNG chunk: length, type, data, CRC of type and data (ISO/IEC 15948, section 5.3). */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * The icon as PNG bytes (8-bit RGBA, no interlace, filter type 0 on every row).
 *
 * @example
 * ```ts
 * writeFileSync("icon.png", iconPng());
 * ```
 */
export function iconPng(): Uint8Array {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, ICON_SIZE);
  view.setUint32(4, ICON_SIZE);
  header.set([8, 6, 0, 0, 0], 8);
  const raw = new Uint8Array(ICON_SIZE * (1 + ICON_SIZE * 4));
  for (let y = 0; y < ICON_SIZE; y++) {
    const row = y * (1 + ICON_SIZE * 4);
    for (let x = 0; x < ICON_SIZE; x++) raw.set(pixel(x, y), row + 1 + x * 4);
  }
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", new Uint8Array(deflateSync(raw, { level: 9 }))),
    chunk("IEND", new Uint8Array(0)),
  ];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    png.set(part, offset);
    offset += part.length;
  }
  return png;
}
