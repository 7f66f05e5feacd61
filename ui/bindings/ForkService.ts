// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { Channel } from "./models";

/** A new channel (a conversation, when `id` is one) holding the history of `id` up to and including the kept message `messageId`, its `forkedFrom` naming them; its members' sessions are forked with ACP `session/fork` where the agent offers it and the session had seen nothing after that message, else started anew with that history as context. */
export function Fork(id: string, messageId: string): Promise<Channel> {
  return call("ForkService", "Fork", id, messageId);
}
