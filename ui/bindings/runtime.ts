// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import type { EventName, EventPayloads } from "./events";

/** The pywebview bridge: window.pywebview.api.<Service>.<Method>(…) returns a promise. */
type Bridge = Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>;
type Batch = [string, unknown][];
type Handler = (payload: never) => void;

interface SidekicksWindow {
  pywebview?: { api?: Bridge };
  __sidekicks?: { dispatch: (batch: Batch) => void };
}

const win = window as unknown as SidekicksWindow;
const handlers = new Map<string, Set<Handler>>();

/** Resolves once pywebview has injected the API (the `pywebviewready` event). */
export const ready: Promise<Bridge> = new Promise((resolve) => {
  const check = (): boolean => {
    const api = win.pywebview?.api;
    if (api && Object.keys(api).length > 0) {
      resolve(api);
      return true;
    }
    return false;
  };
  if (!check()) {
    window.addEventListener("pywebviewready", () => void check());
    const timer = setInterval(() => check() && clearInterval(timer), 50);
  }
});

/** Calls a service method; rejects with an Error whose message is for a person. */
export async function call<T>(service: string, method: string, ...args: unknown[]): Promise<T> {
  const api = await ready;
  const fn = api[service]?.[method];
  if (!fn) throw new Error(`${service}.${method} is not available`);
  try {
    return (await fn(...args)) as T;
  } catch (err) {
    const message = (err as { message?: string })?.message ?? String(err);
    throw new Error(message);
  }
}

/** Subscribes to an event; returns the function that unsubscribes (like Wails' runtime). */
export function On<K extends EventName>(
  name: K,
  callback: (payload: EventPayloads[K]) => void,
): () => void {
  let set = handlers.get(name);
  if (!set) {
    set = new Set();
    handlers.set(name, set);
  }
  const handler = callback as Handler;
  set.add(handler);
  return () => {
    set?.delete(handler);
  };
}

/** Called by the backend's event pump with a batch of [name, payload] pairs, in order. */
function dispatch(batch: Batch): void {
  for (const [name, payload] of batch) {
    const set = handlers.get(name);
    if (!set) continue;
    for (const handler of [...set]) {
      try {
        (handler as (p: unknown) => void)(payload);
      } catch (err) {
        console.error(`handler of ${name} failed`, err);
      }
    }
  }
}

win.__sidekicks = { dispatch };
