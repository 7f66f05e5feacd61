// Who answers a message (SPEC §4 "Who answers a message"): the rules of app/channels/routing.py,
// ported line for line so that the preview under the composer says what the backend will do.
//
// - `/agent:command args`: that agent, which receives `/command args`;
// - `@name` mentions of configured agents: those, in mention order (non-members join first);
// - no mention: the last agent that answered; with a single member, that member;
// - no mention, nobody answered yet, several members: nobody (system message `no-recipient`);
// - anything in a direct conversation: its agent; mentions there are plain text.
// - issue 29: `@here` and `@all` (any case) mention every member, in member order, where they
//   stand among the other mentions; plain text in a direct conversation.

import type { Message } from "../../bindings";

// Agent names are ASCII, in any case. (A case-insensitive [a-z] would also match the Kelvin sign
// and the long s, which Unicode folds to k and s.)
const NAME = "[A-Za-z0-9][A-Za-z0-9_-]*";
// Python's \w is Unicode-aware: letters, digits and _ of any script.
const WORD = "\\p{L}\\p{N}_";
// Python's whitespace (str.strip, \s): JavaScript's trim() and \s also take U+FEFF, and leave
// U+001C–U+001F and U+0085.
const SPACE =
  "\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const MENTION = new RegExp(`(?<![${WORD}@])@(${NAME})`, "gu");
const AGENT_COMMAND = new RegExp(`^/(${NAME}):([^${SPACE}]+)([\\s\\S]*)$`, "u");
const LEADING_MENTIONS = new RegExp(`^([${SPACE}]*@${NAME}[,:]?)+[${SPACE}]*`, "u");
/** `@here`, `@all`: every member of the channel, in order (not agent names: config refuses them). */
export const EVERY_MEMBER: readonly string[] = ["here", "all"];
const SURROUNDING_SPACE = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, "gu");

/** Python's str.strip(): the text without the whitespace around it. */
function strip(text: string): string {
  return text.replace(SURROUNDING_SPACE, "");
}

export interface Route {
  /** In answering order. */
  recipients: string[];
  /** Mentioned agents that are not members yet: they join first. */
  joining: string[];
  /** Sent alone, without the channel's context. */
  command: boolean;
  /** What the recipients receive. */
  text: string;
  noRecipient: boolean;
}

function route0(partial: Partial<Route>): Route {
  return { recipients: [], joining: [], command: false, text: "", noRecipient: false, ...partial };
}

function agentNamed(name: string, configured: readonly string[]): string | undefined {
  const lowered = name.toLowerCase();
  return configured.find((a) => a.toLowerCase() === lowered);
}

/** Configured agents mentioned with @name, in order of first mention, once each. */
export function mentions(text: string, configured: readonly string[]): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(MENTION)) {
    const agent = agentNamed(match[1] ?? "", configured);
    if (agent !== undefined && !found.includes(agent)) found.push(agent);
  }
  return found;
}

/**
 * The agents a person's message in a channel mentions, in order, once each: named agents as
 * `mentions` finds them, and `@here`/`@all` as every member in member order.
 */
export function addressed(text: string, configured: readonly string[], members: readonly string[]): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(MENTION)) {
    const name = match[1] ?? "";
    if (EVERY_MEMBER.includes(name.toLowerCase())) {
      for (const member of members) if (!found.includes(member)) found.push(member);
      continue;
    }
    const agent = agentNamed(name, configured);
    if (agent !== undefined && !found.includes(agent)) found.push(agent);
  }
  return found;
}

/** True when the text mentions `@here` or `@all`. */
export function broadcast(text: string): boolean {
  for (const match of text.matchAll(MENTION)) if (EVERY_MEMBER.includes((match[1] ?? "").toLowerCase())) return true;
  return false;
}

export interface RouteContext {
  configured: readonly string[];
  members: readonly string[];
  direct?: string;
  lastResponder?: string;
}

export function route(text: string, ctx: RouteContext): Route {
  const { configured, members, direct = "", lastResponder = "" } = ctx;
  let stripped = strip(text);
  if (direct) {
    const command = stripped.startsWith("/");
    const explicit = AGENT_COMMAND.exec(stripped);
    if (explicit && agentNamed(explicit[1] ?? "", configured) === direct) {
      stripped = `/${explicit[2]}${explicit[3]}`; // /demo:help → /help
    }
    return route0({ recipients: [direct], command, text: stripped });
  }

  const explicit = AGENT_COMMAND.exec(stripped);
  if (explicit) {
    const agent = agentNamed(explicit[1] ?? "", configured);
    if (agent !== undefined) {
      return route0({
        recipients: [agent],
        joining: members.includes(agent) ? [] : [agent],
        command: true,
        text: `/${explicit[2]}${explicit[3]}`,
      });
    }
  }

  const mentioned = addressed(stripped, configured, members);
  // @all in a channel without members is a mention too: what follows it may be a command.
  const leading = mentioned.length > 0 || broadcast(stripped);
  const afterMentions = leading ? stripped.replace(LEADING_MENTIONS, "") : stripped;
  const command = afterMentions.startsWith("/");
  const body = command ? afterMentions : stripped;
  if (mentioned.length) {
    return route0({
      recipients: mentioned,
      joining: mentioned.filter((a) => !members.includes(a)),
      command,
      text: body,
    });
  }
  if (lastResponder && members.includes(lastResponder)) {
    return route0({ recipients: [lastResponder], command, text: body });
  }
  if (members.length === 1 && members[0] !== undefined) {
    return route0({ recipients: [members[0]], command, text: body });
  }
  return route0({ noRecipient: true, text: body, command });
}

/**
 * The last agent that answered in the channel, as the backend remembers it: the author of the
 * latest agent message, unless that agent left the channel since (leaving forgets it).
 */
export function lastResponder(messages: readonly Message[], members: readonly string[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (!message) continue;
    if (message.role === "system" && message.code === "agent-left") {
      // Leaving forgets the last responder only if it was that agent: keep looking for who
      // answered last, and drop it below if it is the one that left.
      const left = message.agent;
      for (let j = i - 1; j >= 0; j--) {
        const earlier = messages[j];
        if (earlier?.role === "agent" && !earlier.queued) {
          return earlier.agent === left ? "" : members.includes(earlier.agent) ? earlier.agent : "";
        }
      }
      return "";
    }
    if (message.role === "agent") return members.includes(message.agent) ? message.agent : "";
  }
  return "";
}

/**
 * The recipients of `r` that the configuration no longer has (renamed or removed): the backend
 * still routes to them by the rules above, and then says that no agent is called so. The preview
 * never promises their answer.
 */
export function notConfigured(r: Route, configured: readonly string[]): string[] {
  return r.recipients.filter((name) => !configured.includes(name));
}

const LEADING_MENTION = new RegExp(`^[${SPACE}]*@(${NAME})[,:]?(?:[${SPACE}]+|$)`, "u");

/**
 * The draft with its leading mentions rewritten so that `chosen` answer it (the preview's
 * "who will answer" choices, issue 29): the leading `@name`s of agents, `@here` and `@all` give
 * way to `@` + each of `chosen` not mentioned later in the text (those keep their place there),
 * then the rest as typed. A leading `@word` that names no agent is text, and stays.
 */
export function withRecipients(text: string, chosen: readonly string[], ctx: RouteContext): string {
  let rest = text;
  for (let match = LEADING_MENTION.exec(rest); match; match = LEADING_MENTION.exec(rest)) {
    const name = match[1] ?? "";
    if (!EVERY_MEMBER.includes(name.toLowerCase()) && agentNamed(name, ctx.configured) === undefined) break;
    rest = rest.slice(match[0].length);
  }
  const later = addressed(rest, ctx.configured, ctx.members);
  const leading = chosen.filter((a) => !later.includes(a)).map((a) => `@${a}`);
  return leading.length ? `${leading.join(" ")} ${rest.replace(new RegExp(`^[${SPACE}]+`, "u"), "")}` : rest;
}
