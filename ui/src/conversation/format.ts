// Words and times shown in a conversation (every string through t(), with literal msgids).

import type { Handoff, Message } from "../../bindings";
import { i18n, t } from "../lib/i18n.svelte";
import { clockOf } from "./clock";

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** "14:03" for a message's createdAt (clock.ts: no Intl). */
export function timeOf(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : clockOf(date, i18n.language);
}

/** The full date and time, for a tooltip (made when it is wanted: fullDate.ts). */
export function dateTimeOf(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const language = i18n.language;
  let found = dateFormats.get(language);
  if (!found) {
    found = new Intl.DateTimeFormat(language, { dateStyle: "full", timeStyle: "medium" });
    dateFormats.set(language, found);
  }
  return found.format(date);
}

/** What a system message says. */
export function systemText(message: Message): string {
  const agent = `@${message.agent}`;
  switch (message.code) {
    case "agent-joined":
      return t("{agent} joined the channel", { agent });
    case "agent-left":
      return t("{agent} left the channel", { agent });
    case "no-recipient":
      return t("Nobody answered: mention an agent with @name");
    case "agent-unavailable":
      return message.error
        ? t("{agent} is unavailable: {error}", { agent, error: splitLines(message.error).reason })
        : t("{agent} is unavailable", { agent });
    case "restored":
      return message.agent
        ? t("Folders restored to before @{agent}'s answer", { agent: message.agent })
        : t("Folders restored to before an earlier answer");
    case "handoff-limit":
      return t("{agent} asked {to}; the hand-off budget ({budget}) is reached", {
        agent,
        to: mentionList(message.handoff?.to ?? []),
        budget: message.handoff?.budget ?? 0,
      });
    case "handoffs-stopped":
      return t("Stopped: the hand-offs to {to} were not sent", {
        to: mentionList(message.handoff?.to ?? []),
      });
    case "recipients-dropped":
      return message.dropped.length === 1
        ? t("Stopped: {agent} will not answer this message", { agent: `@${message.dropped[0]}` })
        : t("Stopped: {agents} will not answer this message", { agents: mentionList(message.dropped) });
    case "made-room":
      return madeRoomText(message.agent, message.madeRoom?.forAgent ?? "", message.madeRoom?.limit ?? 0);
    default:
      return message.error;
  }
}

/** Why an agent was stopped (issue 29): its conversation's line and the toast say the same. */
export function madeRoomText(agent: string, forAgent: string, limit: number): string {
  const words = { agent: `@${agent}`, other: `@${forAgent}`, limit };
  return limit === 1
    ? t("{agent} was stopped to make room for {other} (one agent runs at a time)", words)
    : t("{agent} was stopped to make room for {other} (at most {limit} agents run at once)", words);
}

/** Agents as "@bob, @carol" (issue 28's hand-off lines). */
export function mentionList(agents: readonly string[]): string {
  return agents.map((agent) => `@${agent}`).join(", ");
}

/** The turn line's words for a hand-off (issue 28): "@bob, hand-off 2 of 3, from @alice". */
export function handoffText(agent: string, handoff: Handoff): string {
  return t("{agent}, hand-off {index} of {budget}, from {from}", {
    agent: `@${agent}`,
    index: handoff.index,
    budget: handoff.budget,
    from: `@${handoff.fromAgent}`,
  });
}

/** An error's first line (the reason), and the lines after it (often the agent's stderr). */
export function splitLines(error: string): { reason: string; tail: string } {
  const newline = error.indexOf("\n");
  if (newline < 0) return { reason: error, tail: "" };
  return { reason: error.slice(0, newline), tail: error.slice(newline + 1).trim() };
}

/** How an agent message ended, when it is worth saying (not a normal end of turn). */
export function stopText(stopReason: Message["stopReason"]): string {
  switch (stopReason) {
    case "cancelled":
      return t("Stopped: the answer was cancelled");
    case "max_tokens":
      return t("Stopped: the agent reached its token limit (max_tokens)");
    case "max_turn_requests":
      return t("Stopped: the agent reached its limit of requests in one turn (max_turn_requests)");
    case "refusal":
      return t("The agent refused to answer (refusal)");
    default:
      return "";
  }
}

/** Messages of the same author a few minutes apart read as one: no repeated name and avatar. */
export function continues(previous: Message | undefined, message: Message): boolean {
  if (!previous || previous.role === "system" || message.role === "system") return false;
  if (previous.role !== message.role || previous.agent !== message.agent) return false;
  if (previous.error || previous.stopReason && previous.stopReason !== "end_turn") return false;
  const gap = new Date(message.createdAt).getTime() - new Date(previous.createdAt).getTime();
  return gap >= 0 && gap < 5 * 60_000;
}
