// What the message actions share with the rest of the conversation, for this session only: the
// text the composer is asked to edit, the retries sent (a badge on the message: only that agent
// answers it), and the dropped messages already sent again.

import { SvelteMap, SvelteSet } from "svelte/reactivity";

export interface EditRequest {
  channel: string;
  text: string;
}

class MessageActionsState {
  /** Edit and resend: the composer of `channel` takes `text` (Composer.svelte). */
  edit = $state<EditRequest | null>(null);
  /** The retries sent here: new user message id → the one agent that answers it. */
  readonly retries = new SvelteMap<string, string>();
  /** Messages dropped by Stop and sent again (each is resent once). */
  readonly resent = new SvelteSet<string>();

  requestEdit(channel: string, text: string): void {
    this.edit = { channel, text };
  }

  /** The edit request for `channel`, taken (null when there is none). */
  takeEdit(channel: string): EditRequest | null {
    const request = this.edit;
    if (!request || request.channel !== channel) return null;
    this.edit = null;
    return request;
  }
}

export const messageActions = new MessageActionsState();

/** A user message's text (what Edit puts back in the composer). */
export function textOf(message: { parts: { kind: string; text: string }[] }): string {
  return message.parts
    .filter((p) => p.kind === "text")
    .map((p) => p.text)
    .join("");
}
