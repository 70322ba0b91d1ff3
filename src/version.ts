/** Server name reported to clients. */
export const SERVER_NAME = "chem-mcp";
/** Release version (kept equal to deno.json and package.json; a test checks it). */
export const VERSION = "1.1.0";
