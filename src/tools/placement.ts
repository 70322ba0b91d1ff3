/**
 * What a tool's call may take and how its lists are named: the limits every tool lives under, said here so that
 * the tools and their list machinery (src/tools/list.ts) own them and the pool (src/pool/) only follows them.
 *
 * @module
 */

/** Suffix of the derived tool that runs one chunk of a list call (src/tools/list.ts). */
export const ITEMS_SUFFIX = ":items";

/**
 * Longest a pooled tool without a deadline of its own may compute, ms. Their atom limits keep them far below it
 * (the slowest drug-set call takes well under a second); past it the worker is retired like a runaway search,
 * so no input can occupy a worker for good. Equal to the longest `timeout_seconds` any tool accepts.
 */
export const POOLED_DEADLINE_MS = 30_000;
