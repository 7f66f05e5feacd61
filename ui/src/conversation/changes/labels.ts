// The words of a change's route, author and circumstances, shared by the Changes panel, an
// answer's "N files changed" and the restore dialog. Tested in labels.test.ts.

import type { FileChange, RestoreFile } from "../../../bindings";
import { t } from "../../lib/i18n.svelte";

/** Who a record names as its author: "you" for a restore or a revert, else the agent. */
export const PERSON = "you";

/** A route's short label (the badge). */
export function routeLabel(route: FileChange["route"]): string {
  switch (route) {
    case "fs":
      return t("Sidekicks write");
    case "agent":
      return t("Agent's own edit");
    case "command":
      return t("Command");
    case "restore":
      return t("Restore");
  }
}

/** What the badge means (its title). */
export function routeTitle(route: FileChange["route"]): string {
  switch (route) {
    case "fs":
      return t("The agent asked Sidekicks to write this file");
    case "agent":
      return t("The agent wrote this file itself, with its own tools: seen in its folder's checkpoints");
    case "command":
      return t("A command the agent ran changed this file: seen in its folder's checkpoints");
    case "restore":
      return t("You restored the folders: reverting this puts the file back as it was before the restore");
  }
}

/** The author of a record, as the panel shows it. */
export function whoText(agent: string): string {
  return agent === PERSON ? t("You") : `@${agent}`;
}

/** The note of a change made while other agents answered in the same folder. */
export function duringText(during: readonly string[]): string {
  if (during.length === 1) {
    return t("Changed while @{agent} was also answering in this folder", { agent: during[0] ?? "" });
  }
  return t("Changed while {agents} were also answering in this folder", {
    agents: during.map((name) => `@${name}`).join(", "),
  });
}

/** What a restore does to a file, in the preview. */
export function restoreStatus(file: RestoreFile): string {
  switch (file.status) {
    case "added":
      return t("recreated");
    case "deleted":
      return t("removed");
    case "renamed":
      return t("renamed");
    case "modified":
      return t("put back");
  }
}

/** Why the preview leaves a file as it is ("" when it is restored). */
export function skippedText(skipped: string): string {
  if (!skipped) return "";
  if (skipped === "link") return t("left as it is (a symbolic link)");
  return t("left as it is ({reason})", { reason: skipped });
}

/** Why an answer's checkpoints left a file out (app/checkpoints/model.py SkipReason). */
export function skippedReason(reason: string): string {
  if (reason === "too large") return t("over the size cap");
  if (reason === "nested repository") return t("a repository of its own");
  if (reason === "unreadable") return t("unreadable");
  return reason;
}
