/**
 * The compound library at server start: loaded (from its cache or built) before the server answers, its
 * startup line on stderr, or the reason it cannot be served, which stops the server with status 2.
 *
 * @module
 */
import {
  type BuildPlace,
  describeLibrary,
  type LibraryIo,
  LibraryLoadError,
  type LibrarySettings,
  loadLibrary,
  setLibrary,
} from "./load.ts";

/**
 * Loads the library of `settings` (none: nothing to do) and makes it the one `library_search` searches, a build's
 * batches computed where `place` says. False, with the reason told to `log`, when it cannot be loaded.
 */
export async function startLibrary(
  settings: LibrarySettings | undefined,
  io: LibraryIo | undefined,
  log: (message: string) => void,
  place?: BuildPlace,
): Promise<boolean> {
  if (!settings) return true;
  if (!io) {
    log("--library: this runtime cannot read files");
    return false;
  }
  try {
    const library = await loadLibrary(settings, io, log, undefined, place);
    setLibrary(library);
    log(describeLibrary(library));
    // RDKit's substructure libraries fill while the server answers; a search before then fills what it needs.
    library.shards.fillAll().catch((error) =>
      log(`library: substructure search unavailable: ${error instanceof Error ? error.message : error}`)
    );
    return true;
  } catch (error) {
    if (!(error instanceof LibraryLoadError)) throw error;
    log(error.message);
    return false;
  }
}
