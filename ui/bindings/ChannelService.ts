// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { AroundPage, Attachment, AttentionCounts, Channel, Command, Conversation, FileChange, MemberSession, NewerPage, Page, PermissionRequested, PermissionRule, SearchResults } from "./models";

/** Invites an agent; the channel shows `agent-joined`. */
export function AddMember(id: string, agent: string): Promise<Channel> {
  return call("ChannelService", "AddMember", id, agent);
}

/** Answers a pending permission request with one of its options. */
export function AnswerPermission(id: string, optionId: string): Promise<void> {
  return call("ChannelService", "AnswerPermission", id, optionId);
}

/** Extension: the page of messages around `messageId` (it included), to open a conversation at a message found. 50 before it, it, 49 after it; at the end of the conversation the live answer and queued messages follow, as in `Conversation`. */
export function Around(id: string, messageId: string): Promise<AroundPage> {
  return call("ChannelService", "Around", id, messageId);
}

/** Extension: a file of the person's (absolute path) to send with the next message. */
export function AttachFile(id: string, path: string): Promise<Attachment> {
  return call("ChannelService", "AttachFile", id, path);
}

/** Extension: an image (base64 `data`, pasted or dropped) kept in the data folder, to send with the next message. */
export function AttachImage(id: string, name: string, mime: string, data: string): Promise<Attachment> {
  return call("ChannelService", "AttachImage", id, name, mime, data);
}

/** Extension: an attached image of this conversation as a `data:` URL, to show it. */
export function AttachmentData(id: string, attachmentId: string): Promise<string> {
  return call("ChannelService", "AttachmentData", id, attachmentId);
}

/** Extension: unread answers by channel and pending permission requests. */
export function Attention(): Promise<AttentionCounts> {
  return call("ChannelService", "Attention");
}

/** Stops the current answer, the agents still due and the queued messages. */
export function Cancel(id: string): Promise<void> {
  return call("ChannelService", "Cancel", id);
}

/** Extension: the files agents changed in this channel, oldest first. */
export function Changes(id: string): Promise<FileChange[]> {
  return call("ChannelService", "Changes", id);
}

/** Extension: shows the native chooser for files to attach; their absolute paths ([] when cancelled). Attach each with AttachFile. */
export function ChooseFiles(): Promise<string[]> {
  return call("ChannelService", "ChooseFiles");
}

/** The agent's last announced slash commands, kept from one launch to the next. */
export function Commands(agent: string): Promise<Command[]> {
  return call("ChannelService", "Commands", agent);
}

/** The channel, its last 100 messages and whether there are more, its turn, usage and pending permission requests. */
export function Conversation(id: string): Promise<Conversation> {
  return call("ChannelService", "Conversation", id);
}

/** Creates a channel; a name already taken (ignoring case) or empty is an error. Extension (issue 17): `members` are invited at once (each shows `agent-joined`). */
export function Create(name: string, description?: string, members?: string[] | void): Promise<Channel> {
  return call("ChannelService", "Create", name, description, members);
}

/** Stops its answers, then deletes the channel and all its history. */
export function Delete(id: string): Promise<void> {
  return call("ChannelService", "Delete", id);
}

/** The direct conversation with `agent`, created the first time. */
export function Direct(agent: string): Promise<Channel> {
  return call("ChannelService", "Direct", agent);
}

/** Extension: the full paths of the files just dropped on the window with these names ("" for each the window could not locate: the page then reads its bytes). */
export function DroppedPaths(names: string[]): Promise<string[]> {
  return call("ChannelService", "DroppedPaths", names);
}

/** Extension: the whole conversation as Markdown, self-contained sanitized HTML or JSON text. */
export function Export(id: string, format: "markdown" | "html" | "json"): Promise<string> {
  return call("ChannelService", "Export", id, format);
}

/** Extension: the conversation on screen when the app last closed ("" for none or one deleted since). */
export function LastViewed(): Promise<string> {
  return call("ChannelService", "LastViewed");
}

/** All channels and direct conversations, oldest to newest. */
export function List(): Promise<Channel[]> {
  return call("ChannelService", "List");
}

/** Extension: one message as Markdown (what "Copy" puts on the clipboard): its content without the author and time heading an export gives it. */
export function MessageMarkdown(id: string, messageId: string): Promise<string> {
  return call("ChannelService", "MessageMarkdown", id, messageId);
}

/** Extension: the members start new ACP sessions; a `new-session` divider is added and what came before it is not sent to them again. Refused while the channel answers. */
export function NewSession(id: string): Promise<void> {
  return call("ChannelService", "NewSession", id);
}

/** Extension: the 100 messages after `afterId` (after an `Around` page). */
export function Newer(id: string, afterId: string): Promise<NewerPage> {
  return call("ChannelService", "Newer", id, afterId);
}

/** The 100 messages before `beforeId`. */
export function Older(id: string, beforeId: string): Promise<Page> {
  return call("ChannelService", "Older", id, beforeId);
}

/** Extension: the "always allow" rules the person gave (per agent and tool kind). */
export function PermissionRules(): Promise<PermissionRule[]> {
  return call("ChannelService", "PermissionRules");
}

/** Extension: every pending permission request of every channel, oldest first. */
export function Permissions(): Promise<PermissionRequested[]> {
  return call("ChannelService", "Permissions");
}

/** Starts the members that never announced commands and opens their sessions. */
export function Prepare(id: string): Promise<void> {
  return call("ChannelService", "Prepare", id);
}

/** Extension: takes back an attachment not sent yet (a pasted image's copy goes). */
export function RemoveAttachment(id: string, attachmentId: string): Promise<void> {
  return call("ChannelService", "RemoveAttachment", id, attachmentId);
}

/** Removes an agent; the channel shows `agent-left`. */
export function RemoveMember(id: string, agent: string): Promise<Channel> {
  return call("ChannelService", "RemoveMember", id, agent);
}

/** Renames a channel (not a direct conversation). */
export function Rename(id: string, name: string, description?: string): Promise<Channel> {
  return call("ChannelService", "Rename", id, name, description);
}

/** Extension: sends a user message again (also one dropped by Stop), or for an agent's answer the user message it answered, to that agent only; the new message's id. */
export function Resend(id: string, messageId: string): Promise<string> {
  return call("ChannelService", "Resend", id, messageId);
}

/** Extension: puts the files of these changes back as they were before, newest change first; refused, with what changed, when a file changed since. The updated records. */
export function Revert(id: string, changeIds: string[]): Promise<FileChange[]> {
  return call("ChannelService", "Revert", id, changeIds);
}

/** Extension: forgets a rule; the rules left. */
export function RevokePermissionRule(ruleId: string): Promise<PermissionRule[]> {
  return call("ChannelService", "RevokePermissionRule", ruleId);
}

/** Extension: exports through the native save dialog; the path written ("" when cancelled). */
export function SaveExport(id: string, format: "markdown" | "html" | "json"): Promise<string> {
  return call("ChannelService", "SaveExport", id, format);
}

/** Extension: full-text search of every conversation's messages (words, prefixes, "quoted phrases"; accents and case folded), newest first; only `channel`'s if given. The last word matches as a prefix while typed; `indexing` while the index catches up. */
export function Search(query: string, channel?: string, limit?: number): Promise<SearchResults> {
  return call("ChannelService", "Search", query, channel, limit);
}

/** Adds a user message and returns its id; it waits (queued) if the channel answers. Extension: `attachments` are ids from AttachFile/AttachImage, sent with the text. */
export function Send(id: string, text: string, attachments?: string[] | void): Promise<string> {
  return call("ChannelService", "Send", id, text, attachments);
}

/** Extension: sets a member's session mode (`session/set_mode`), opening its session first if needed; the session as it is afterwards. */
export function SetMode(id: string, agent: string, modeId: string): Promise<MemberSession> {
  return call("ChannelService", "SetMode", id, agent, modeId);
}

/** Extension: sets one of a member's session options (`session/set_config_option`); the session as it is afterwards. */
export function SetOption(id: string, agent: string, optionId: string, value: string | boolean): Promise<MemberSession> {
  return call("ChannelService", "SetOption", id, agent, optionId, value);
}

/** Extension: the page says which conversation is on screen ("" for none) and whether the window has the focus; its answers count as read then. Remembered as the conversation to reopen at the next start. */
export function Viewing(id: string, focused: boolean): Promise<AttentionCounts> {
  return call("ChannelService", "Viewing", id, focused);
}
