// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { Channel } from "./models";

/** Extension: past the budget, one more round: the hand-offs held go to their agents. */
export function ContinueHandoffs(id: string): Promise<void> {
  return call("HandoffService", "ContinueHandoffs", id);
}

/** Extension: how many hand-offs between agents a message of the person may start in this channel (0 = none: agents' mentions of each other are plain text); the channel. */
export function SetHandoffs(id: string, budget: number): Promise<Channel> {
  return call("HandoffService", "SetHandoffs", id, budget);
}
