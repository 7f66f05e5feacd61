// Joining the inbox's Permissions() answer with the events that arrived while it was on its way
// (the answer may predate them): requests asked meanwhile are added after the loaded ones, and
// those resolved meanwhile are left out.

import type { PermissionRequested } from "../../bindings";

export function mergeLoaded(
  loaded: readonly PermissionRequested[],
  arrived: readonly PermissionRequested[],
  resolved: ReadonlySet<string>,
): PermissionRequested[] {
  const known = new Set(loaded.map((r) => r.id));
  const added = arrived.filter((r, i) => !known.has(r.id) && arrived.findIndex((a) => a.id === r.id) === i);
  return [...loaded, ...added].filter((r) => !resolved.has(r.id));
}
