// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { AttentionCounts, ElicitationRequested, PermissionRequested, PermissionRule } from "./models";

/** Extension: unread answers by channel and pending permission requests. */
export function Attention(): Promise<AttentionCounts> {
  return call("InboxService", "Attention");
}

/** Extension (issue 26): every agent's pending question (elicitation) in every channel, oldest first; answered with ChannelService.AnswerElicitation. */
export function Elicitations(): Promise<ElicitationRequested[]> {
  return call("InboxService", "Elicitations");
}

/** Extension: the conversation on screen when the app last closed ("" for none or one deleted since). */
export function LastViewed(): Promise<string> {
  return call("InboxService", "LastViewed");
}

/** Extension: the "always allow" rules the person gave (per agent and tool kind). */
export function PermissionRules(): Promise<PermissionRule[]> {
  return call("InboxService", "PermissionRules");
}

/** Extension: every pending permission request of every channel, oldest first. */
export function Permissions(): Promise<PermissionRequested[]> {
  return call("InboxService", "Permissions");
}

/** Extension: forgets a rule; the rules left. */
export function RevokePermissionRule(ruleId: string): Promise<PermissionRule[]> {
  return call("InboxService", "RevokePermissionRule", ruleId);
}

/** Extension: the page says which conversation is on screen ("" for none) and whether the window has the focus; its answers count as read then. Remembered as the conversation to reopen at the next start. */
export function Viewing(id: string, focused: boolean): Promise<AttentionCounts> {
  return call("InboxService", "Viewing", id, focused);
}
