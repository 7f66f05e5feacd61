// Tells the backend what is on screen (InboxService.Viewing), one call at a time: the page's
// calls each run on their own thread in the backend, so two in flight could land in either
// order (a blur then a focus read as a blur). The newest state waiting goes once the call in
// flight has answered; states in between are skipped.

import type { AttentionCounts } from "../../bindings";

export interface Seen {
  id: string;
  focused: boolean;
}

type Call = (id: string, focused: boolean) => Promise<AttentionCounts>;

export class ViewingReporter {
  /** What the backend last acknowledged. */
  reported = $state<Seen | null>(null);
  #wanted: Seen | null = null;
  #busy = false;

  constructor(
    private readonly answered: (counts: AttentionCounts) => void,
    private readonly call: Call, // InboxService.Viewing
  ) {}

  report(seen: Seen): void {
    this.#wanted = seen;
    if (!this.#busy) void this.#flush();
  }

  async #flush(): Promise<void> {
    this.#busy = true;
    while (this.#wanted) {
      const seen = this.#wanted;
      this.#wanted = null;
      try {
        this.answered(await this.call(seen.id, seen.focused));
        this.reported = seen;
      } catch {
        // the next attention:changed brings the counts; the next change reports again
      }
    }
    this.#busy = false;
  }
}
