/**
 * A model clock and fake workers that live on it, for proving the pool's rules (src/pool/) deterministically:
 * no real time passes, timers fire when the test advances the clock, in order of their due time, and every
 * promise reaction they start runs before the next fires.
 *
 * @module
 */
import * as v from "valibot";
import type { Clock } from "../../src/clock.ts";
import { defineTool, LOCAL_COMPUTATION, type Tool } from "../../src/tools/tool.ts";
import type { Placement } from "../../src/tools/placement.ts";
import type { WorkerHandle, WorkerReply, WorkerRequest } from "../../src/pool/messages.ts";

interface Timer {
  readonly at: number;
  readonly id: number;
  readonly callback: () => void;
}

/** A clock whose time moves only when {@link ModelClock.advance} moves it. */
export class ModelClock implements Clock {
  #now = 0;
  #next = 1;
  readonly #timers = new Map<number, Timer>();

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): number {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), id, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === "number") this.#timers.delete(handle);
  }

  /** Lets every pending promise reaction run (no time passes). */
  async settle(): Promise<void> {
    for (let i = 0; i < 40; i++) await Promise.resolve();
  }

  /** Moves time forward by `ms`, firing each timer due on the way at its own time. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    await this.settle();
    for (;;) {
      let due: Timer | undefined;
      for (const timer of this.#timers.values()) {
        if (timer.at <= end && (!due || timer.at < due.at || (timer.at === due.at && timer.id < due.id))) {
          due = timer;
        }
      }
      if (!due) break;
      this.#timers.delete(due.id);
      this.#now = due.at;
      due.callback();
      await this.settle();
    }
    this.#now = end;
    await this.settle();
  }
}

/** What a fake worker does with a call: answer after `ms` of work, throw, hang, or die. */
export type Behaviour =
  | { readonly ms: number; readonly value: unknown; readonly retire?: true; readonly heap?: number }
  | { readonly chem: string }
  | { readonly fail: string }
  | { readonly hang: true }
  | { readonly die: string };

/**
 * Workers on a {@link ModelClock}: each reports ready after `startMs` and warm right after, runs a call's
 * behaviour (the `behaviour` argument of the call) on the clock, and reports CPU time: the time it has been
 * busy times `cpuShare` (1: a core of its own; 0.2: a busy machine).
 */
export class ModelWorkers {
  spawned = 0;
  terminated = 0;
  running = 0;
  cpuShare = 1;
  /** The memory each worker reports once warm, bytes (none: a runtime that cannot tell). */
  warmHeap = 0;
  readonly handles: WorkerHandle[] = [];

  constructor(readonly clock: ModelClock, public startMs = 100) {}

  spawn = (): WorkerHandle => {
    this.spawned++;
    const clock = this.clock;
    let onMessage: (m: WorkerReply) => void = () => {};
    let onFailure: (reason: string) => void = () => {};
    let alive = true;
    let busySince: number | undefined;
    let cpu = 0;
    const reply = (message: WorkerReply) => {
      if (!alive) return;
      if (busySince !== undefined) cpu += (clock.now() - busySince) * this.cpuShare;
      if (busySince !== undefined) this.running--;
      busySince = undefined;
      onMessage(message);
    };
    const handle: WorkerHandle = {
      post: (message: WorkerRequest) => {
        if (message.kind === "init") {
          clock.setTimeout(() => {
            if (!alive) return;
            onMessage({ kind: "ready" });
            onMessage({ kind: "warm", ...(this.warmHeap ? { heap: this.warmHeap } : {}) });
          }, this.startMs);
          return;
        }
        const behaviour = (message.args as { behaviour: Behaviour }).behaviour;
        busySince = clock.now();
        this.running++;
        if ("ms" in behaviour) {
          const retire = behaviour.retire ? { retire: true } : {};
          const heap = behaviour.heap ? { heap: behaviour.heap } : {};
          clock.setTimeout(
            () => reply({ kind: "result", value: behaviour.value, ...retire, ...heap }),
            behaviour.ms,
          );
        } else if ("chem" in behaviour) {
          reply({ kind: "chem_error", code: behaviour.chem as never, message: "typed" });
        } else if ("fail" in behaviour) reply({ kind: "failure", message: behaviour.fail });
        else if ("die" in behaviour) {
          alive = false;
          this.running--;
          onFailure(behaviour.die);
        }
      },
      onMessage: (listener) => (onMessage = listener),
      onFailure: (listener) => (onFailure = listener),
      terminate: () => {
        if (alive) this.terminated++;
        if (alive && busySince !== undefined) this.running--;
        alive = false;
      },
      hold: () => {},
      cpuMs: () => cpu + (busySince === undefined ? 0 : (clock.now() - busySince) * this.cpuShare),
    };
    this.handles.push(handle);
    return handle;
  };
}

/**
 * A tool the pool runs by its placement alone: its calls carry a `behaviour` for the fake workers, and `run` is
 * what a call in place answers.
 */
export function fakeTool(
  name: string,
  placement: Placement,
  run: () => Record<string, unknown> = () => ({}),
): Tool {
  return defineTool({
    name,
    title: name,
    description: name,
    annotations: LOCAL_COMPUTATION,
    input: v.object({ behaviour: v.any() }),
    output: v.object({}),
    placement,
    run,
  }) as unknown as Tool;
}
