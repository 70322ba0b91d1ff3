/**
 * A server started by `npx` follows its launcher out.
 *
 * `npx` runs a package's command through a shell (`npm exec` → `sh -c` → the command), and stopping npx
 * (SIGTERM from a supervisor, a test or `kill`) ends npm and its shell without the signal reaching the server:
 * a Streamable HTTP server kept listening on its port with nobody left to stop it. npm marks the commands it
 * runs with `npm_command=exec`; such a server checks its parent process once a second and, once it has been
 * handed to another parent (its launcher is gone), exits with 143 as on SIGTERM. A server started any other
 * way (a shell's `&`, nohup, a service manager) may outlive its parent on purpose and is left alone.
 *
 * @module
 */

/** What following the launcher needs from the runtime. */
export interface LauncherWatch {
  /** The process's environment. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The parent process id, read afresh on each call. */
  readonly parentPid: () => number;
  /** Ends the process. */
  readonly exit: (code: number) => void;
  /** Lets the process end while the check's timer is pending. */
  readonly unref: (timer: ReturnType<typeof setInterval>) => void;
}

/**
 * Starts the check when `npm exec` (npx) started this process; returns whether it did.
 *
 * @example
 * ```ts
 * followLauncher({ env: Deno.env.toObject(), parentPid: () => Deno.ppid, exit: Deno.exit, unref: Deno.unrefTimer });
 * ```
 */
export function followLauncher(watch: LauncherWatch, intervalMs = 1_000): boolean {
  if (watch.env.npm_command !== "exec") return false;
  const launcher = watch.parentPid();
  const timer = setInterval(() => {
    if (watch.parentPid() !== launcher) watch.exit(143);
  }, intervalMs);
  watch.unref(timer);
  return true;
}
