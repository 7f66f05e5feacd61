// The pure parts of the search window: results newest first, the keyboard's selection, the guard
// that keeps an older query's late answer from replacing a newer one's, and when a hit was said.

import type { SearchHit } from "../../bindings";

function timeOf(hit: SearchHit): number {
  const time = new Date(hit.createdAt).getTime();
  return Number.isNaN(time) ? 0 : time;
}

/** Newest first (the backend's order already; kept stable for equal times). */
export function newestFirst(hits: readonly SearchHit[]): SearchHit[] {
  return hits
    .map((hit, i) => ({ hit, i, time: timeOf(hit) }))
    .sort((a, b) => b.time - a.time || a.i - b.i)
    .map(({ hit }) => hit);
}

/** The selection after Up (-1) or Down (+1) among `count` results: it stops at both ends;
 *  -1 (none) when there are no results. */
export function moveSelection(selected: number, step: number, count: number): number {
  if (count <= 0) return -1;
  return Math.min(count - 1, Math.max(0, selected + step));
}

/** Numbers the queries sent: an answer is shown only if no query was sent after its own. */
export class LatestOnly {
  #sent = 0;

  /** The ticket of a query about to be sent. */
  next(): number {
    return ++this.#sent;
  }

  /** Whether the answer to the query with this ticket is still the one wanted. */
  current(ticket: number): boolean {
    return ticket === this.#sent;
  }

  /** Whatever is on its way is no longer wanted (the dialog closed, the query emptied). */
  forget(): void {
    this.#sent++;
  }
}

export type When = { kind: "time"; date: Date } | { kind: "day"; date: Date } | { kind: "year"; date: Date };

/** How a hit's time is told: the time today, the day this year, the full date before. */
export function whenOf(iso: string, now: Date): When | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  if (date.toDateString() === now.toDateString()) return { kind: "time", date };
  if (date.getFullYear() === now.getFullYear()) return { kind: "day", date };
  return { kind: "year", date };
}
