// Output on its way to one xterm screen, paced so that the page stays responsive under a flood:
// pieces are gathered and written in an animation frame, at most once per INTERVAL, and the next
// write waits until xterm has parsed the previous one (its write callback). Drawing is what
// costs (bench/terminal_stream.py): a flood is drawn a few times a second. What piles up is kept to
// its tail (MAX_PENDING characters): a command printing faster than the screen can draw shows
// its latest lines, with a note of how much was skipped, instead of falling ever further
// behind (and holding ever more memory). Tested in feed.test.ts with a fake screen and frames.

import { appendTail } from "./tail";

/** The xterm calls a feed uses (a fake in tests). */
export interface Screen {
  /** Writes `data`; `done` is called once xterm has parsed it. */
  write(data: string, done: () => void): void;
  /** Clears the screen and its scrollback. */
  reset(): void;
}

export interface FeedOptions {
  /** Runs `callback` before the next frame (requestAnimationFrame in the page). */
  schedule?: (callback: () => void) => void;
  /** Characters waiting for the screen at most (twice this between two cuts); older ones are
   *  skipped. */
  maxPending?: number;
  /** Milliseconds between two writes at least (a flood is drawn at this pace). */
  interval?: number;
  /** The clock and the timer (performance.now and setTimeout in the page). */
  now?: () => number;
  later?: (callback: () => void, ms: number) => void;
  /** The line written where `count` characters were skipped. */
  skipped?: (count: number) => string;
}

export const MAX_PENDING = 8 * 1024;
/** A flood is drawn 4 times a second: enough to watch it go by, a fraction of the work. */
export const INTERVAL = 250;

export class TerminalFeed {
  /** Characters written to the screen so far (skipped ones not counted). */
  written = 0;
  /** Characters skipped because the screen could not keep up. */
  skippedCount = 0;

  #screen: Screen;
  #schedule: (callback: () => void) => void;
  #maxPending: number;
  #skippedLine: (count: number) => string;
  #interval: number;
  #now: () => number;
  #later: (callback: () => void, ms: number) => void;
  #lastWrite = -Infinity;
  #pending = "";
  #skippedNow = 0;
  #scheduled = false;
  #writing = false;
  #disposed = false;
  /** Bumped by reset(): a write callback of an earlier generation is ignored. */
  #generation = 0;

  constructor(screen: Screen, options: FeedOptions = {}) {
    this.#screen = screen;
    this.#schedule = options.schedule ?? ((callback) => void requestAnimationFrame(callback));
    this.#maxPending = options.maxPending ?? MAX_PENDING;
    this.#skippedLine = options.skipped ?? ((count) => `[… ${count} characters skipped …]`);
    this.#interval = options.interval ?? INTERVAL;
    this.#now = options.now ?? (() => performance.now());
    this.#later = options.later ?? ((callback, ms) => void setTimeout(callback, ms));
  }

  /** Queues `data` for the next frame. */
  push(data: string): void {
    if (this.#disposed || !data) return;
    const kept = appendTail(this.#pending, data, this.#maxPending);
    this.#pending = kept.text;
    this.#skippedNow += kept.dropped;
    this.skippedCount += kept.dropped;
    this.#kick();
  }

  /** Replaces what the screen shows with `text` (queued output is dropped). */
  replace(text: string): void {
    if (this.#disposed) return;
    this.#generation += 1;
    this.#writing = false;
    this.#pending = "";
    this.#skippedNow = 0;
    this.written = 0;
    this.skippedCount = 0;
    this.#screen.reset();
    this.push(text);
  }

  /** Nothing is written any more (the screen is going away). */
  dispose(): void {
    this.#disposed = true;
    this.#pending = "";
  }

  /** Whether output waits to be written, or is being written. */
  get busy(): boolean {
    return this.#pending !== "" || this.#writing;
  }

  #kick(): void {
    if (this.#scheduled || this.#writing || this.#disposed) return;
    this.#scheduled = true;
    const frame = (): void =>
      this.#schedule(() => {
        this.#scheduled = false;
        this.#flush();
      });
    const wait = this.#lastWrite + this.#interval - this.#now();
    if (wait > 0) this.#later(frame, wait);
    else frame();
  }

  #flush(): void {
    if (this.#disposed || this.#writing || !this.#pending) return;
    let data = this.#pending;
    if (this.#skippedNow) {
      // Reset colours first: the skipped part may have left some on.
      data = `\x1b[0m\r\n${this.#skippedLine(this.#skippedNow)}\r\n${data}`;
      this.#skippedNow = 0;
    }
    this.written += this.#pending.length;
    this.#lastWrite = this.#now();
    this.#pending = "";
    this.#writing = true;
    const generation = this.#generation;
    this.#screen.write(data, () => {
      if (generation !== this.#generation) return;
      this.#writing = false;
      if (this.#pending) this.#kick();
    });
  }
}

/** Holds back a final line break until more output comes: the screen's last row is then the
 *  output's last line, not an empty row under it (the screen is sized to its lines). */
export class NewlineHold {
  #held = false;

  /** What to write now for `data`. */
  take(data: string): string {
    if (!data) return data;
    const out = (this.#held ? "\n" : "") + data;
    this.#held = out.endsWith("\n");
    return this.#held ? out.slice(0, -1) : out;
  }

  reset(): void {
    this.#held = false;
  }
}
