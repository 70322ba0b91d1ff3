#!/usr/bin/env node
/**
 * Node.js entry: binds process stdin/stdout and node:fs to the runtime-neutral program.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import process from "node:process";
import { main, type Platform } from "../main.ts";

const require = createRequire(import.meta.url);

/** Node bindings of {@link Platform}. */
export const nodePlatform: Platform = {
  stderr: (text) => void process.stderr.write(text),
  stdout: (text) =>
    new Promise((resolve, reject) =>
      process.stdout.write(text, (error) => (error ? reject(error) : resolve()))
    ),
  loadWasm: async () => await readFile(require.resolve("@rdkit/rdkit/RDKit_minimal.wasm")),
  readStdin: (onChunk) =>
    new Promise((resolve, reject) => {
      process.stdin.on("data", (chunk: Buffer) => onChunk(chunk));
      process.stdin.on("end", resolve);
      process.stdin.on("error", reject);
    }),
  serveHttp: () => Promise.reject(new Error("streamable-http is not available in this build yet")),
};

process.exitCode = await main(process.argv.slice(2), nodePlatform);
