// An agent's several direct conversations (issue 28) as the sidebar lists them: grouped under
// their agent, newest first, a few shown until "more" is asked. Pure functions: Vitest runs them.
// Issue 29: nothing moves when a conversation is opened or written to. Every configured agent has
// its group (in the configuration's order) from the start, and conversations are ordered by when
// they were made, not by their last message.

import type { Channel } from "../../bindings";

/** How many of an agent's conversations the sidebar shows before "more". */
export const SHOWN = 3;

export interface AgentConversations {
  agent: string;
  /** Newest made first (ids break ties); none yet for an agent never talked to. */
  conversations: Channel[];
}

/** Newest made first; two alike in time by id (time-sortable), the later first. */
export function newestFirst(a: Channel, b: Channel): number {
  const byTime = b.createdAt.localeCompare(a.createdAt);
  if (byTime !== 0) return byTime;
  return b.id < a.id ? -1 : b.id > a.id ? 1 : 0;
}

/** The direct conversations of `all`, one group per agent: every agent of `order` (the
 *  configuration's), in that order, even without a conversation, then agents no longer
 *  configured that still have one, by name. */
export function groupConversations(all: readonly Channel[], order: readonly string[]): AgentConversations[] {
  const byAgent = new Map<string, Channel[]>(order.map((name) => [name, []]));
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
