// The composer's text and what comes and goes in it: the draft kept while another conversation
// is open (not across restarts), the last message recalled by Up in the empty box (Down empties
// it again), and Edit and resend's copy of a message, with what the box held before it.

import type { Message } from "../../../bindings";

const drafts = new Map<string, string>();

/** The text of the person's last message among `messages` ("" when there is none). */
export function lastSent(messages: readonly Message[]): string {
  const mine = messages.filter((m) => m.role === "user");
  const last = mine[mine.length - 1];
  return last ? last.parts.filter((p) => p.kind === "text").map((p) => p.text).join("") : "";
}

export class Draft {
  text = $state("");
  /** What the box held before Edit and resend (null: not editing a copy). */
  beforeEdit = $state<string | null>(null);
  #recalled = $state<string | null>(null); // the last message, put back by Up
  readonly #channel: string;

  constructor(channel: string) {
    this.#channel = channel;
    this.text = drafts.get(channel) ?? "";
  }

  /** Keeps the text for when this conversation opens again. */
  remember(): void {
    drafts.set(this.#channel, this.text);
  }

  /** Edit and resend: the box takes a message's text, to send as a new message. */
  edit(text: string): void {
    if (this.beforeEdit === null) this.beforeEdit = this.text;
    this.text = text;
    this.#recalled = null;
  }

  /** Back to what the box held before the edit. */
  cancelEdit(): void {
    this.text = this.beforeEdit ?? "";
    this.beforeEdit = null;
  }

  /** The edited text went as a new message. */
  sent(): void {
    this.beforeEdit = null;
  }

  /**
   * Up in the empty box recalls the last message (`last`), the caret at its end; Down, on its
   * last line and the text unchanged, empties the box again. True when it took the key.
   */
  recall(event: KeyboardEvent, box: HTMLTextAreaElement, last: () => string): boolean {
    if (event.shiftKey || event.altKey || event.ctrlKey || event.metaKey) return false;
    if (event.key === "ArrowUp" && this.text === "") {
      const text = last();
      if (!text) return false;
      this.text = this.#recalled = text;
      queueMicrotask(() => box.setSelectionRange(text.length, text.length));
      return true;
    }
    const onLastLine = !box.value.slice(box.selectionEnd).includes("\n");
    if (event.key === "ArrowDown" && this.#recalled !== null && this.text === this.#recalled && onLastLine) {
      this.text = "";
      this.#recalled = null;
      return true;
    }
    return false;
  }
}
