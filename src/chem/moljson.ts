/**
 * MolJSON version 1 (docs/moljson.md) in one import: the document's schema (./moljson/schema.ts), SMILES →
 * MolJSON (./moljson/writer.ts) and MolJSON → molecule (./moljson/reader.ts). New code imports the module it
 * needs.
 *
 * @module
 */
export * from "./moljson/schema.ts";
export { molToMolJson, toMolJson } from "./moljson/writer.ts";
export { fromMolJson, molFromMolJson } from "./moljson/reader.ts";
