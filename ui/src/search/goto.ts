// Ctrl/Cmd+K's "Go to" (issue 29): the channels, conversations and agents whose name, title or
// @handle hold every word typed (case and accents ignored), listed before the messages found.
// A pure function: Vitest runs it.

import type { AgentInfo, Channel } from "../../bindings";

export interface GoTo {
  kind: "channel" | "conversation" | "agent";
  /** The channel or conversation to open; for an agent, its name (its conversation opens). */
  id: string;
  /** What the row says first: "#general", a conversation's title, an agent's title. */
  label: string;
  /** What it says after: a channel's description, "with Demo", "@demo". */
  detail: string;
  /** The agent whose avatar leads the row ("" for a channel). */
  agent: string;
}

/** At most this many: the messages found stay in view below. */
export const GOTO_LIMIT = 6;

function folded(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

function matches(words: readonly string[], ...fields: string[]): boolean {
  const haystack = folded(fields.join(" "));
  return words.every((word) => haystack.includes(word));
}

/** The places `query` names: agents first (one conversation each, or more under their titles),
 *  then channels, then titled direct conversations, each in the sidebar's order. */
export function goToTargets(query: string, all: readonly Channel[], agents: readonly AgentInfo[]): GoTo[] {
  const words = folded(query)
    .split(/\s+/)
    .map((word) => word.replace(/^[@#]/, ""))
    .filter(Boolean);
  if (words.length === 0) return [];
  const titleOf = (name: string): string => agents.find((a) => a.name === name)?.title || name;
  const found: GoTo[] = [];
  for (const agent of agents) {
    if (matches(words, agent.name, agent.title, `@${agent.name}`)) {
      found.push({ kind: "agent", id: agent.name, label: agent.title || agent.name, detail: `@${agent.name}`, agent: agent.name });
    }
  }
  for (const channel of all) {
    if (!channel.direct && matches(words, channel.name, channel.description)) {
      found.push({ kind: "channel", id: channel.id, label: `#${channel.name}`, detail: channel.description, agent: "" });
    }
  }
  for (const channel of all) {
    if (channel.direct && channel.title && matches(words, channel.title)) {
      const agent = titleOf(channel.direct);
      found.push({ kind: "conversation", id: channel.id, label: channel.title, detail: agent, agent: channel.direct });
    }
  }
  return found.slice(0, GOTO_LIMIT);
}
