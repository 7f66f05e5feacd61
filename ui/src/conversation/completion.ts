// What the composer offers to complete at the caret: `@agent` mentions, and `/command`s of the
// agents the message is for (`/agent:command` for any member, in a channel). Mentions list the
// channel's members first (in member order), then the other agents, then `@here` and `@all`.

import type { AgentInfo, Command } from "../../bindings";
import { EVERY_MEMBER, mentions, route, type RouteContext } from "./routing";

export interface Item {
  key: string;
  /** What replaces the typed word (with a trailing space). */
  insert: string;
  label: string;
  detail: string;
  hint: string;
  /** The agent this item is about (for its icon). */
  agent: string;
  /** A mentioned agent that is not a member joins the channel. */
  joins?: boolean;
  /** `@here`, `@all`: every member (issue 29). */
  everyone?: boolean;
}

export interface Completion {
  kind: "mention" | "command";
  /** The range of the text the chosen item replaces. */
  from: number;
  to: number;
  items: Item[];
}

const MENTION_AT_CARET = /(?:^|[^\p{L}\p{N}_@])@([A-Za-z0-9_-]*)$/u;
const COMMAND_AT_CARET = /^((?:\s*@[A-Za-z0-9][A-Za-z0-9_-]*[,:]?\s+)*)\/(\S*)$/u;
const MAX_ITEMS = 12;

export interface CompletionContext extends RouteContext {
  agents: readonly AgentInfo[];
  commandsOf: (agent: string) => Command[];
}

export function complete(text: string, caret: number, ctx: CompletionContext): Completion | null {
  const before = text.slice(0, caret);
  // Only complete at the end of a word: the caret must not be inside one.
  if (/^[\p{L}\p{N}_:-]/u.test(text.slice(caret))) return null;

  const command = COMMAND_AT_CARET.exec(before);
  if (command) {
    const query = (command[2] ?? "").toLowerCase();
    const items = commandItems(command[1] ?? "", query, ctx);
    return { kind: "command", from: caret - query.length - 1, to: caret, items: items.slice(0, MAX_ITEMS) };
  }

  const mention = MENTION_AT_CARET.exec(before);
  if (mention && !ctx.direct) {
    const query = (mention[1] ?? "").toLowerCase();
    const items = mentionItems(query, ctx);
    return { kind: "mention", from: caret - query.length - 1, to: caret, items: items.slice(0, MAX_ITEMS) };
  }
  return null;
}

function mentionItems(query: string, ctx: CompletionContext): Item[] {
  const matching = ctx.agents.filter(
    (a) => a.name.toLowerCase().startsWith(query) || a.title.toLowerCase().startsWith(query),
  );
  const inChannel = (name: string): number => ctx.members.indexOf(name);
  const members = matching.filter((a) => inChannel(a.name) >= 0).sort((a, b) => inChannel(a.name) - inChannel(b.name));
  const others = matching.filter((a) => inChannel(a.name) < 0);
  const items = [...members, ...others].map(
    (a): Item => ({
      key: `@${a.name}`,
      insert: `@${a.name} `,
      label: `@${a.name}`,
      detail: a.title !== a.name ? a.title : a.description,
      hint: "",
      agent: a.name,
      joins: inChannel(a.name) < 0,
    }),
  );
  if (ctx.members.length === 0) return items;
  const everyone = EVERY_MEMBER.filter((word) => word.startsWith(query)).map(
    (word): Item => ({ key: `@${word}`, insert: `@${word} `, label: `@${word}`, detail: "", hint: "", agent: "", everyone: true }),
  );
  // @here and @all stay listed: past MAX_ITEMS, the agents at the end are the ones left out.
  return [...items.slice(0, MAX_ITEMS - everyone.length), ...everyone];
}

function commandItems(leading: string, query: string, ctx: CompletionContext): Item[] {
  const plain = (agent: string): Item[] =>
    ctx
      .commandsOf(agent)
      .filter((c) => c.name.toLowerCase().startsWith(query))
      .map((c) => ({
        key: `${agent}/${c.name}`,
        insert: `/${c.name} `,
        label: `/${c.name}`,
        detail: c.description,
        hint: c.hint,
        agent,
      }));
  if (ctx.direct) return plain(ctx.direct);

  const mentioned = mentions(leading, ctx.configured);
  if (mentioned.length) return mentioned.flatMap(plain);

  // Without a mention, `/command` goes where a plain message would; `/agent:command` anywhere.
  const routed = route("x", ctx).recipients[0];
  const items = routed && !query.includes(":") ? plain(routed) : [];
  const qualified = [...ctx.members, ...ctx.configured.filter((a) => !ctx.members.includes(a))];
  for (const agent of qualified) {
    for (const c of ctx.commandsOf(agent)) {
      const name = `${agent}:${c.name}`;
      if (name.toLowerCase().startsWith(query) || (!query.includes(":") && c.name.toLowerCase().startsWith(query))) {
        items.push({ key: `${agent}:${c.name}`, insert: `/${name} `, label: `/${name}`, detail: c.description, hint: c.hint, agent });
      }
    }
  }
  return items;
}

/**
 * True when the text the completion would replace is already exactly `item` (a complete
 * `/command`, `/agent:command` or `@agent` typed in full): Enter then sends rather than accepting
 * the same word again. A prefix, or another item chosen with the arrows, is not complete.
 */
export function alreadyComplete(text: string, completion: Completion, item: Item): boolean {
  return text.slice(completion.from, completion.to) === item.insert.trimEnd();
}
