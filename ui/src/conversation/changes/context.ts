// The conversation's Changes state, shared by ConversationView with what it contains (the
// header's button, each answer's "N files changed", the panel) without threading it through
// the message list.

import { getContext, setContext } from "svelte";
import type { ChangesState } from "./changes.svelte";

const KEY = Symbol("changes");

export function shareChanges(state: ChangesState): void {
  setContext(KEY, state);
}

/** The conversation's Changes state (undefined outside a conversation). */
export function sharedChanges(): ChangesState | undefined {
  return getContext<ChangesState | undefined>(KEY);
}
