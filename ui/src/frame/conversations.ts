// An agent's several direct conversations (issue 28) as the sidebar lists them: grouped under
// their agent, newest first, a few shown until "more" is asked. Pure functions: Vitest runs them.

import type { Channel } from "../../bindings";

/** How many of an agent's conversations the sidebar shows before "more". */
export const SHOWN = 3;

export interface AgentConversations {
  agent: string;
  /** Newest first: by the person's last message, else the creation (ids break ties). */
  conversations: Channel[];
}

/** When the conversation was last written to by the person (or made): the sidebar's order. */
function activityOf(channel: Channel): string {
  return channel.lastActivity || channel.createdAt;
}

/** Newest first; two alike in time by id (time-sortable), the later first. */
export function newestFirst(a: Channel, b: Channel): number {
  const byTime = activityOf(b).localeCompare(activityOf(a));
  if (byTime !== 0) return byTime;
  return b.id < a.id ? -1 : b.id > a.id ? 1 : 0;
}

/** The direct conversations of `all`, one group per agent: agents in `order` (the
 *  configuration's) first, in that order, then agents no longer configured by name. */
export function groupConversations(all: readonly Channel[], order: readonly string[]): AgentConversations[] {
  const byAgent = new Map<string, Channel[]>();
  for (const channel of all) {
    if (!channel.direct) continue;
    const list = byAgent.get(channel.direct) ?? [];
    list.push(channel);
    byAgent.set(channel.direct, list);
  }
  const rank = new Map(order.map((name, at) => [name, at]));
  const agents = [...byAgent.keys()].sort((a, b) => {
    const ra = rank.get(a) ?? Number.MAX_SAFE_INTEGER;
    const rb = rank.get(b) ?? Number.MAX_SAFE_INTEGER;
    return ra !== rb ? ra - rb : a.localeCompare(b);
  });
  return agents.map((agent) => ({ agent, conversations: [...byAgent.get(agent)!].sort(newestFirst) }));
}

export interface Shown {
  shown: Channel[];
  /** How many are left out (0: nothing for "more" to show). */
  hidden: number;
}

/** The conversations shown of a group: all when `expanded`, else the SHOWN newest, plus the older
 *  ones on screen (`current`) or `marked` (an unread answer, a pending permission), in order:
 *  the sidebar always shows where the person is and what waits for them. */
export function shownConversations(
  conversations: readonly Channel[],
  expanded: boolean,
  current = "",
  marked: (id: string) => boolean = () => false,
): Shown {
  if (expanded || conversations.length <= SHOWN) return { shown: [...conversations], hidden: 0 };
  const shown = conversations.filter((c, at) => at < SHOWN || c.id === current || marked(c.id));
  return { shown, hidden: conversations.length - shown.length };
}
