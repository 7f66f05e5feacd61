// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { AnswerCheckpoint, CheckpointStoreInfo, FileChange, RestoreFile } from "./models";

/** Extension: the channel's answers that were checkpointed, oldest first. */
export function Checkpoints(id: string): Promise<AnswerCheckpoint[]> {
  return call("CheckpointService", "Checkpoints", id);
}

/** Extension: drops the checkpoints taken more than `olderThanDays` days ago (0: all but those of answers in progress); their changes can no longer be reverted. */
export function ClearCheckpoints(olderThanDays: number): Promise<CheckpointStoreInfo> {
  return call("CheckpointService", "ClearCheckpoints", olderThanDays);
}

/** Extension: puts the agents' folders back as they were before this answer (every later answer undone). The present is checkpointed first: the restore's records, under the notice it posts, revert it. Refused while an agent answers in those folders. */
export function Restore(id: string, messageId: string): Promise<FileChange[]> {
  return call("CheckpointService", "Restore", id, messageId);
}

/** Extension: what restoring the agents' folders to before this answer would change. */
export function RestorePreview(id: string, messageId: string): Promise<RestoreFile[]> {
  return call("CheckpointService", "RestorePreview", id, messageId);
}

/** Extension: the checkpoint store's size and what it holds. */
export function StoreInfo(): Promise<CheckpointStoreInfo> {
  return call("CheckpointService", "StoreInfo");
}
