// Whether "Fork from here" offers "Fork into worktrees from this point" (issue 28): the message
// has a checkpoint to start from. An answer: its own, once it ended. Any other message (the
// person's, a line): the folders as the next answer found them, or as the last one left them —
// some ended answer of the conversation. The backend decides per member (ForkService.Fork says in
// the fork which members start from their folder as it is); this only hides a choice that
// could not apply to anyone.

import type { AnswerCheckpoint, Message } from "../../../bindings";

export function hasCheckpointAt(
  message: Pick<Message, "id" | "role">,
  checkpoints: readonly AnswerCheckpoint[],
): boolean {
  const ended = checkpoints.filter((c) => c.endedAt !== "");
  return message.role === "agent" ? ended.some((c) => c.messageId === message.id) : ended.length > 0;
}
