// The agent's own sessions (AgentService.Sessions, ACP `session/list`) shown in its card, and
// opening one as a conversation (ChannelService.OpenSession: a new channel named after the
// session's title, its history replayed by the agent and kept).

import { AgentService, ChannelService, type AgentSession } from "../../bindings";
import { messageOf } from "../lib/errors";
import { i18n } from "../lib/i18n.svelte";
import { navigation } from "../lib/navigation.svelte";

class AgentSessions {
  /** The last list each agent gave, by agent (absent: never asked). */
  lists = $state<Record<string, AgentSession[]>>({});
  /** Agents whose list is being read. */
  loading = $state<Record<string, boolean>>({});
  /** Why the last list or opening failed, by agent, in the backend's words. */
  errors = $state<Record<string, string>>({});
  /** The session being opened, by agent. */
  opening = $state<Record<string, string>>({});

  /** Reads the agent's sessions (starting it if needed); true if it listed them. */
  async load(agent: string): Promise<boolean> {
    if (this.loading[agent]) return false;
    this.loading[agent] = true;
    delete this.errors[agent];
    try {
      this.lists[agent] = await AgentService.Sessions(agent);
      return true;
    } catch (err) {
      this.errors[agent] = messageOf(err);
      return false;
    } finally {
      delete this.loading[agent];
    }
  }

  /** Opens one of the agent's sessions as a conversation and shows it; true if it did. */
  async open(agent: string, sessionId: string): Promise<boolean> {
    if (this.opening[agent]) return false;
    this.opening[agent] = sessionId;
    delete this.errors[agent];
    try {
      const channel = await ChannelService.OpenSession(agent, sessionId);
      await navigation.go({ kind: "channel", id: channel.id });
      return true;
    } catch (err) {
      this.errors[agent] = messageOf(err);
      return false;
    } finally {
      delete this.opening[agent];
    }
  }
}

export const agentSessions = new AgentSessions();

const formats = new Map<string, Intl.DateTimeFormat>();

/** When a session was last active, in the UI's language ("3 Dec 2026, 10:04"); "" when the
 *  agent did not say or said something that is no date. */
export function updatedText(iso: string): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  let format = formats.get(i18n.language);
  if (!format) {
    format = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
    formats.set(i18n.language, format);
  }
  return format.format(date);
}
