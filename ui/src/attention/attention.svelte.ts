// What waits for the person (issue 17), as the backend counts it (app/attention/tracker.py):
// unread answers by conversation and pending permission requests. Kept current by
// `attention:changed`; read again when another configuration (another history) opens.

import { InboxService, On, type AttentionCounts } from "../../bindings";

const NONE: AttentionCounts = { unread: {}, permissions: 0, total: 0 };

/** "Sidekicks", or "(3) Sidekicks" while something waits (as the backend titles the window). */
export function windowTitle(total: number): string {
  return total > 0 ? `(${total}) Sidekicks` : "Sidekicks";
}

class AttentionStore {
  counts = $state.raw<AttentionCounts>(NONE);

  unread(channel: string): number {
    return this.counts.unread[channel] ?? 0;
  }

  async reload(): Promise<void> {
    try {
      this.counts = await InboxService.Attention();
    } catch {
      // the next attention:changed brings them
    }
  }

  follow(): () => void {
    void this.reload();
    const offs = [
      On("attention:changed", (counts) => {
        this.counts = counts;
      }),
      On("config:changed", () => void this.reload()),
    ];
    return () => offs.forEach((off) => off());
  }

  /** What Viewing() answered: the counts right after the conversation on screen was read. */
  set(counts: AttentionCounts): void {
    this.counts = counts;
  }
}

export const attention = new AttentionStore();
