/**
 * A PNG decoder for tests: chunks read and CRC-checked, IDAT inflated with node:zlib, scanlines unfiltered
 * (PNG specification, ISO/IEC 15948, §9). Only what resvg writes: 8-bit RGBA or RGB, not interlaced.
 */
import { inflateSync } from "node:zlib";

/** A decoded PNG: its size and RGBA pixels, row by row. */
export interface DecodedPng {
  readonly width: number;
  readonly height: number;
  /** 4 bytes per pixel. */
  readonly rgba: Uint8Array;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

/** CRC-32 of PNG chunks (ISO 3309 polynomial). */
function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Decodes `bytes`, or throws naming what is wrong. */
export function decodePng(bytes: Uint8Array): DecodedPng {
  if (!SIGNATURE.every((b, i) => bytes[i] === b)) throw new Error("not a PNG signature");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let width = 0, height = 0, channels = 0;
  const idat: Uint8Array[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) {
      throw new Error(`bad CRC in chunk ${type}`);
    }
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const [depth, colour, , , interlace] = data.subarray(8);
      if (depth !== 8 || interlace !== 0 || (colour !== 6 && colour !== 2)) {
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`);
      }
      channels = colour === 6 ? 4 : 3;
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    at += 12 + length;
  }
  const raw = new Uint8Array(inflateSync(Buffer.concat(idat)));
  const stride = width * channels;
  if (raw.length !== height * (stride + 1)) {
    throw new Error(`IDAT holds ${raw.length} bytes, not ${height} rows`);
  }
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) unfilter(raw, pixels, y, stride, channels);
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    for (let c = 0; c < 3; c++) rgba[i * 4 + c] = pixels[i * channels + c]!;
    rgba[i * 4 + 3] = channels === 4 ? pixels[i * 4 + 3]! : 255;
  }
  return { width, height, rgba };
}

/** Undoes row `y`'s filter (none, sub, up, average, Paeth) into `out`. */
function unfilter(raw: Uint8Array, out: Uint8Array, y: number, stride: number, bpp: number): void {
  const filter = raw[y * (stride + 1)]!;
  const src = y * (stride + 1) + 1;
  const row = y * stride;
  for (let x = 0; x < stride; x++) {
    const a = x >= bpp ? out[row + x - bpp]! : 0;
    const b = y > 0 ? out[row - stride + x]! : 0;
    const c = x >= bpp && y > 0 ? out[row - stride + x - bpp]! : 0;
    const value = raw[src + x]!;
    let predicted = 0;
    if (filter === 1) predicted = a;
    else if (filter === 2) predicted = b;
    else if (filter === 3) predicted = (a + b) >> 1;
    else if (filter === 4) predicted = paeth(a, b, c);
    else if (filter !== 0) throw new Error(`unknown PNG filter ${filter} in row ${y}`);
    out[row + x] = (value + predicted) & 0xff;
  }
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** How many pixels satisfy `test` (given r, g, b, a). */
export function countPixels(
  png: DecodedPng,
  test: (r: number, g: number, b: number, a: number) => boolean,
): number {
  let n = 0;
  for (let i = 0; i < png.rgba.length; i += 4) {
    if (test(png.rgba[i]!, png.rgba[i + 1]!, png.rgba[i + 2]!, png.rgba[i + 3]!)) n++;
  }
  return n;
}
