// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { Attachment, Channel, Command, Conversation, FileChange, MemberSession, Page } from "./models";

/** Invites an agent; the channel shows `agent-joined`. */
export function AddMember(id: string, agent: string): Promise<Channel> {
  return call("ChannelService", "AddMember", id, agent);
}

/** Answers a pending permission request with one of its options. */
export function AnswerPermission(id: string, optionId: string): Promise<void> {
  return call("ChannelService", "AnswerPermission", id, optionId);
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

/** Creates a channel; a name already taken (ignoring case) or empty is an error. */
export function Create(name: string, description?: string): Promise<Channel> {
  return call("ChannelService", "Create", name, description);
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

/** All channels and direct conversations, oldest to newest. */
export function List(): Promise<Channel[]> {
  return call("ChannelService", "List");
}

/** The 100 messages before `beforeId`. */
export function Older(id: string, beforeId: string): Promise<Page> {
  return call("ChannelService", "Older", id, beforeId);
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

/** Extension: puts the files of these changes back as they were before, newest change first; refused, with what changed, when a file changed since. The updated records. */
export function Revert(id: string, changeIds: string[]): Promise<FileChange[]> {
  return call("ChannelService", "Revert", id, changeIds);
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
