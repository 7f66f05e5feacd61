// The conversation's Changes and Checkpoints states, shared by ConversationView with what it
// contains (the header's button, each answer's "N files changed" and "Restore to before this
// answer", the panel, the restore dialog) without threading them through the message list.

import { getContext, setContext } from "svelte";
import type { ChangesState } from "./changes.svelte";
import type { CheckpointsState } from "./checkpoints.svelte";

const KEY = Symbol("changes");
const CHECKPOINTS = Symbol("checkpoints");

export function shareChanges(state: ChangesState): void {
  setContext(KEY, state);
}

/** The conversation's Changes state (undefined outside a conversation). */
export function sharedChanges(): ChangesState | undefined {
  return getContext<ChangesState | undefined>(KEY);
}

export function shareCheckpoints(state: CheckpointsState): void {
  setContext(CHECKPOINTS, state);
}

/** The conversation's Checkpoints state (undefined outside a conversation). */
export function sharedCheckpoints(): CheckpointsState | undefined {
  return getContext<CheckpointsState | undefined>(CHECKPOINTS);
}
