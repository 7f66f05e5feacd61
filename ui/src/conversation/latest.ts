// The latest messages of a conversation opened at an older message (search, a link): the view
// shows a page from the middle of the history, "detached" from its end, while new messages and
// answers keep coming. They are kept here, live, rather than appended after the page (out of
// place) or dropped: reaching the end by paging down (Newer) or "Jump to latest" shows them at
// once, without asking the backend again.

import type { Message } from "../../bindings";

/** Latest messages kept at most (a page: what "Jump to latest" shows). */
export const LATEST_KEPT = 100;

export class LatestMessages {
  /** Oldest first, queued messages excluded (the model keeps those apart). */
  messages: Message[] = [];
  /** Older messages exist before these (on the server, or dropped from here past LATEST_KEPT). */
  more = false;

  reset(messages: readonly Message[], more: boolean): void {
    const kept = messages.filter((m) => !m.queued);
    this.messages = kept.slice(-LATEST_KEPT);
    this.more = more || kept.length > LATEST_KEPT;
  }

  indexOf(id: string): number {
    for (let i = this.messages.length - 1; i >= 0; i--) if (this.messages[i]?.id === id) return i;
    return -1;
  }

  /** A message heard of: replaces the one with its id, else comes last. */
  upsert(message: Message): void {
    if (message.queued) return;
    const at = this.indexOf(message.id);
    if (at >= 0) {
      this.messages[at] = message;
      return;
    }
    this.messages.push(message);
    if (this.messages.length > LATEST_KEPT) {
      this.messages.splice(0, this.messages.length - LATEST_KEPT);
      this.more = true;
    }
  }

  /** Replaces the message with this id by `change(it)`, when kept. */
  update(id: string, change: (message: Message) => Message): void {
    const at = this.indexOf(id);
    const message = this.messages[at];
    if (message) this.messages[at] = change(message);
  }
}

/**
 * `loaded` (a page that reached the end of the stored history) joined with `latest` (what the
 * live conversation holds now): the messages of `latest` after the last one loaded are appended,
 * and the loaded ones `latest` also has take its (fresher) version. Null when the two do not
 * meet (`latest` starts after the last message loaded): the caller shows `latest` instead.
 */
export function mergeLatest(loaded: readonly Message[], latest: readonly Message[]): Message[] | null {
  const last = loaded[loaded.length - 1];
  if (!last) return latest.slice();
  const fresh = new Map(latest.map((m) => [m.id, m]));
  const merged = loaded.map((m) => fresh.get(m.id) ?? m);
  const at = latest.findIndex((m) => m.id === last.id);
  if (at < 0) {
    // Either nothing came since (all of `latest` is loaded already), or a gap.
    const known = new Set(loaded.map((m) => m.id));
    return latest.every((m) => known.has(m.id)) ? merged : null;
  }
  const known = new Set(loaded.map((m) => m.id));
  for (const message of latest.slice(at + 1)) if (!known.has(message.id)) merged.push(message);
  return merged;
}
