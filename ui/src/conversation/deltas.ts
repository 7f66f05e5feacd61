// `message:delta` applied to a message, without mutating it: a new message object whose changed
// parts are new objects too, so that components showing unchanged parts do nothing.
//
// `text` is appended to part `index` (text, thought), `part` replaces it (tool, plan); a delta
// whose index equals the number of parts adds a part.

import type { Message, MessageDelta, Part } from "../../bindings";

/** A part with nothing in it (the fields of issue 26 at their defaults). */
export const EMPTY_PART: Part = {
  kind: "text",
  text: "",
  tool: null,
  plan: null,
  messageId: "",
  planId: "",
  planUri: "",
  removed: false,
  compaction: null,
  subagent: null,
};

function emptyPart(kind: Part["kind"]): Part {
  return { ...EMPTY_PART, kind };
}

/** `message` with `deltas` (all for it, in order) applied. */
export function applyDeltas(message: Message, deltas: readonly MessageDelta[]): Message {
  const parts = message.parts.slice();
  // Text appended to the same part in one batch is joined first: one new string per part.
  const appended = new Map<number, string[]>();
  const flush = (index: number): void => {
    const chunks = appended.get(index);
    if (!chunks) return;
    appended.delete(index);
    const part = parts[index];
    if (part) parts[index] = { ...part, text: part.text + chunks.join("") };
  };
  for (const delta of deltas) {
    const index = delta.index;
    if (index < 0 || index > parts.length) continue; // a delta from a past we do not have
    if (delta.part) {
      appended.delete(index);
      parts[index] = delta.part;
      continue;
    }
    if (delta.text == null) continue;
    if (index === parts.length) parts.push(emptyPart(delta.kind));
    const chunks = appended.get(index);
    if (chunks) chunks.push(delta.text);
    else appended.set(index, [delta.text]);
  }
  for (const index of [...appended.keys()]) flush(index);
  return { ...message, parts };
}

/** The Markdown text of a message (its text parts), for previews and notifications. */
export function messageText(message: Message): string {
  return message.parts
    .filter((p) => p.kind === "text")
    .map((p) => p.text)
    .join("")
    .trim();
}
