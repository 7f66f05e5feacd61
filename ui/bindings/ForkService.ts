// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { Channel } from "./models";

/** A new channel (a conversation, when `id` is one) holding the history of `id` up to and including the kept message `messageId`, its `forkedFrom` naming them; its members' sessions are forked with ACP `session/fork` where the agent offers it and the session had seen nothing after that message, else started anew with that history as context. With `worktree`, each member whose folder is in Git works in a worktree of its own holding the folder as at that message's checkpoint; a line says which members start from their folder as it is, and why. */
export function Fork(id: string, messageId: string, worktree?: boolean): Promise<Channel> {
  return call("ForkService", "Fork", id, messageId, worktree);
}
