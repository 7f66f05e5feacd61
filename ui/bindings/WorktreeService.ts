// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { MemberWorktree, MergeOutcome } from "./models";

/** Extension: removes the member's worktree and branch; it works in its folder again (unless the configuration asks for a worktree: a fresh one at its next answer). */
export function DiscardWorktree(id: string, agent: string): Promise<MemberWorktree> {
  return call("WorktreeService", "DiscardWorktree", id, agent);
}

/** Extension: merges the worktree's changes into the folder (three ways); the files with a conflict are listed per hunk, not written. */
export function MergeWorktree(id: string, agent: string): Promise<MergeOutcome> {
  return call("WorktreeService", "MergeWorktree", id, agent);
}

/** Extension: writes a conflicting file with a choice per hunk ("theirs": the worktree's, "ours": the folder's, "both"); refused when the folder's file changed since it was listed (`version`). */
export function ResolveConflict(id: string, agent: string, path: string, version: string, choices: string[]): Promise<MergeOutcome> {
  return call("WorktreeService", "ResolveConflict", id, agent, path, version, choices);
}

/** Extension: the member works in a worktree of its folder (made now from the folder's current commit) or in the folder; its session starts afresh there. Refused for a folder that is not a Git repository. */
export function SetIsolation(id: string, agent: string, on: boolean): Promise<MemberWorktree> {
  return call("WorktreeService", "SetIsolation", id, agent, on);
}

/** Extension: each member's isolation and worktree, with the worktree's changes. */
export function Worktrees(id: string): Promise<MemberWorktree[]> {
  return call("WorktreeService", "Worktrees", id);
}
