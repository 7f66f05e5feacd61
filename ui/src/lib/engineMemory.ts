// The page gives back the memory its start-up left, once (issue 29, memory). The app starts
// QtWebEngine with V8's `gc` function exposed (app/bridge/engine_memory.py). V8 defines it on
// the global object as a property that cannot be deleted; it is harmless there: it can only
// make this page's engine collect its garbage, and only the page's own scripts run (the CSP:
// nothing an agent writes is a script). Measured (docs/benchmarks.md, "Memory"): one memory-reducing
// collection after the warm-up makes the idle renderer 2 MB smaller; V8 had not made one on
// its own 20 s later. An ordinary major collection gave back nothing measurable.
// Where there is no `gc` (other engines, a person's own --js-flags), nothing happens.

type Collect = (options?: { type?: "major" | "minor"; execution?: "sync" | "async"; flavor?: "regular" | "last-resort" }) => unknown;

const scope = globalThis as { gc?: unknown };
const collect: Collect | null = typeof scope.gc === "function" ? (scope.gc as Collect) : null;

let released = false;

/** One memory-reducing collection, the first time it is asked for (later calls do nothing);
 *  true when it ran. The page's root then says so (`data-memory-released`). */
export function releaseStartUpMemory(): boolean {
  if (released || !collect) return false;
  released = true;
  try {
    collect({ type: "major", execution: "sync", flavor: "last-resort" });
  } catch {
    return false; // an engine whose gc takes no options: memory is only an optimization
  }
  if (typeof document !== "undefined") document.documentElement.dataset.memoryReleased = "true";
  return true;
}
