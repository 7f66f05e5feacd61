// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { Channel, Command, Conversation, Page } from "./models";

/** Invites an agent; the channel shows `agent-joined`. */
export function AddMember(id: string, agent: string): Promise<Channel> {
  return call("ChannelService", "AddMember", id, agent);
}

/** Extension (issue 26): answers an agent's question (`elicitation:requested`): `accept` with the form's content (checked against its fields first; none in url mode), `decline` or `cancel`. */
export function AnswerElicitation(id: string, action: string, content?: Record<string, boolean | number | number | string | string[]> | void): Promise<void> {
  return call("ChannelService", "AnswerElicitation", id, action, content);
}

/** Answers a pending permission request with one of its options. */
export function AnswerPermission(id: string, optionId: string): Promise<void> {
  return call("ChannelService", "AnswerPermission", id, optionId);
}

/** Stops the current answer, the agents still due and the queued messages. */
export function Cancel(id: string): Promise<void> {
  return call("ChannelService", "Cancel", id);
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

/** All channels and direct conversations, oldest to newest. Read as last published, without waiting for the core loop (app/channels/publishing.py `channel_list`). */
export function List(): Promise<Channel[]> {
  return call("ChannelService", "List");
}

/** Extension (issue 28): another direct conversation with `agent`, the newest (app/channels/conversations.py); `Direct` stays the oldest. */
export function NewConversation(agent: string): Promise<Channel> {
  return call("ChannelService", "NewConversation", agent);
}

/** Extension: the members start new ACP sessions; a `new-session` divider is added and what came before it is not sent to them again. Refused while the channel answers. */
export function NewSession(id: string): Promise<void> {
  return call("ChannelService", "NewSession", id);
}

/** The 100 messages before `beforeId`. */
export function Older(id: string, beforeId: string): Promise<Page> {
  return call("ChannelService", "Older", id, beforeId);
}

/** Extension (issue 26): opens one of the agent's own sessions (AgentService.Sessions) as a new conversation, its history replayed by `session/load` and kept; the conversation already holding that session if there is one (app/channels/opened_sessions.py). */
export function OpenSession(agent: string, sessionId: string): Promise<Channel> {
  return call("ChannelService", "OpenSession", agent, sessionId);
}

/** Starts the members that never announced commands and opens their sessions. */
export function Prepare(id: string): Promise<void> {
  return call("ChannelService", "Prepare", id);
}

/** Removes an agent; the channel shows `agent-left`. */
export function RemoveMember(id: string, agent: string): Promise<Channel> {
  return call("ChannelService", "RemoveMember", id, agent);
}

/** Renames a channel; a direct conversation's `name` is its title (issue 28). */
export function Rename(id: string, name: string, description?: string): Promise<Channel> {
  return call("ChannelService", "Rename", id, name, description);
}

/** Extension: sends a user message again (also one dropped by Stop), or for an agent's answer the user message it answered, to that agent only; the new message's id. */
export function Resend(id: string, messageId: string): Promise<string> {
  return call("ChannelService", "Resend", id, messageId);
}

/** Adds a user message and returns its id; it waits (queued) if the channel answers. Extension: `attachments` are ids from AttachFile/AttachImage, sent with the text. */
export function Send(id: string, text: string, attachments?: string[] | void): Promise<string> {
  return call("ChannelService", "Send", id, text, attachments);
}
