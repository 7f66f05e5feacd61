// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { FileChange } from "./models";

/** Extension: the files agents changed in this channel, oldest first. */
export function Changes(id: string): Promise<FileChange[]> {
  return call("ChangesService", "Changes", id);
}

/** Extension: puts the files of these changes back as they were before, newest change first; refused, with what changed, when a file changed since. The updated records. */
export function Revert(id: string, changeIds: string[]): Promise<FileChange[]> {
  return call("ChangesService", "Revert", id, changeIds);
}

/** Extension: puts back one hunk of a text change (the `hunk`-th "@@" of its diff, from 0); the record then holds what is left of the change. Refused when the file changed since. */
export function RevertHunk(id: string, changeId: string, hunk: number): Promise<FileChange> {
  return call("ChangesService", "RevertHunk", id, changeId, hunk);
}
