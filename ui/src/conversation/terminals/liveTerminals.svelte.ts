// The commands agents run, as they run: `terminal:output` and `terminal:exited` followed once
// for the whole page (from the first conversation shown), so that a tool call's card that
// appears, or unfolds, after its command started still shows what it printed. Each terminal
// keeps the tail of its output (TAIL_CHARS at most) for the cards that open later; a card
// shown meanwhile gets every piece as it arrives (listen). Ended terminals are forgotten
// beyond MAX_ENDED (their final output is in the stored message by then).
//
// How a command ended is reactive state (`exits`): the card shows the exit code as soon as the
// event arrives, before the message's own update says it.

import { On, type TerminalExited, type TerminalOutput } from "../../../bindings";
import { appendTail } from "./tail";

/** Characters of output kept per terminal for a card that opens later (up to twice this
 *  between two cuts). */
export const TAIL_CHARS = 256 * 1024;
/** Ended terminals remembered (the oldest ones are forgotten first). */
export const MAX_ENDED = 32;

export interface Exit {
  exitCode: number | null;
  signal: string | null;
}

export interface TerminalListener {
  output(data: string): void;
}

interface Entry {
  tail: string;
  /** Characters of output seen in all (tail included). */
  seen: number;
  listeners: Set<TerminalListener>;
}

type Subscribe = <Name extends "terminal:output" | "terminal:exited">(
  name: Name,
  callback: (payload: Name extends "terminal:output" ? TerminalOutput : TerminalExited) => void,
) => () => void;

export class LiveTerminals {
  /** How each ended terminal ended, by terminal id. */
  exits = $state.raw<Record<string, Exit>>({});

  #entries = new Map<string, Entry>();
  #ended: string[] = [];
  #offs: (() => void)[] = [];

  /** Starts following the events (once; later calls do nothing). */
  follow(on: Subscribe = On as Subscribe): void {
    if (this.#offs.length) return;
    this.#offs = [
      on("terminal:output", (event) => this.#output(event as TerminalOutput)),
      on("terminal:exited", (event) => this.#exited(event as TerminalExited)),
    ];
  }

  /** Stops following (tests). */
  stop(): void {
    this.#offs.forEach((off) => off());
    this.#offs = [];
  }

  /** The output seen so far (its tail), and how many characters were seen in all. */
  seen(id: string): { tail: string; seen: number } {
    const entry = this.#entries.get(id);
    return { tail: entry?.tail ?? "", seen: entry?.seen ?? 0 };
  }

  /** Calls `listener` with each new piece of this terminal's output until unsubscribed. */
  listen(id: string, listener: TerminalListener): () => void {
    const entry = this.#entry(id);
    entry.listeners.add(listener);
    return () => {
      entry.listeners.delete(listener);
      // A terminal that never printed (a stored message's) leaves nothing behind.
      if (entry.listeners.size === 0 && entry.seen === 0) this.#entries.delete(id);
    };
  }

  #entry(id: string): Entry {
    let entry = this.#entries.get(id);
    if (!entry) {
      entry = { tail: "", seen: 0, listeners: new Set() };
      this.#entries.set(id, entry);
    }
    return entry;
  }

  #output(event: TerminalOutput): void {
    if (!event.data) return;
    const entry = this.#entry(event.terminal);
    entry.seen += event.data.length;
    entry.tail = appendTail(entry.tail, event.data, TAIL_CHARS).text;
    for (const listener of [...entry.listeners]) listener.output(event.data);
  }

  #exited(event: TerminalExited): void {
    this.exits = { ...this.exits, [event.terminal]: { exitCode: event.exitCode, signal: event.signal } };
    this.#ended = [...this.#ended.filter((id) => id !== event.terminal), event.terminal];
    while (this.#ended.length > MAX_ENDED) {
      // The oldest one no card shows (one that is shown stays until its card goes).
      const at = this.#ended.findIndex((id) => !this.#entries.get(id)?.listeners.size);
      if (at < 0) break;
      const [old = ""] = this.#ended.splice(at, 1);
      this.#entries.delete(old);
      const { [old]: _forgotten, ...rest } = this.exits;
      this.exits = rest;
    }
  }
}

export const liveTerminals = new LiveTerminals();
