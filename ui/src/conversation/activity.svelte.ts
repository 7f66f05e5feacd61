// What happens in the conversations that are not on screen, for the sidebar and notifications:
// - unread: channels that got messages while not shown (cleared when shown);
// - asking: channels with a pending permission request (a marker nobody can miss);
// - turns: which channel each agent answers, to say whose turn it is elsewhere.
// Notifications are native, sent by the backend (app/attention), which also counts the unread
// answers the sidebar shows (attention/attention.svelte.ts).

import { On, type Channel, type Message } from "../../bindings";
import { agents } from "../lib/agents.svelte";
import { navigation } from "../lib/navigation.svelte";

interface Turn {
  busy: boolean;
  answering: string;
  /** When `answering` took this value: agents answer channels in the order they asked. */
  since: number;
}

/** `#name` for a channel, or the agent's title for a direct conversation. */
export function channelLabel(channel: Channel | undefined): string {
  if (!channel) return "";
  if (channel.direct) return agents.byName(channel.direct)?.title ?? channel.direct;
  return `#${channel.name}`;
}

class Activity {
  /** Messages received while the channel was not shown, by channel id. */
  unread = $state.raw<Record<string, number>>({});
  /** Pending permission requests, by channel id. */
  asking = $state.raw<Record<string, number>>({});
  turns = $state.raw<Record<string, Turn>>({});

  #requests = new Map<string, string>(); // request id → channel id
  #counted = new Set<string>(); // message ids already counted as unread

  shown(): string {
    const view = navigation.view;
    return view.kind === "channel" ? view.id : "";
  }

  /** The channel is on screen: its messages are read. */
  seen(id: string): void {
    if (!this.unread[id]) return;
    const { [id]: _, ...rest } = this.unread;
    this.unread = rest;
  }

  /** The channel an agent is answering, other than `except` ("" when none is known). */
  answeringElsewhere(agent: string, except: string): string {
    let best = "";
    let since = Infinity;
    for (const [id, turn] of Object.entries(this.turns)) {
      if (id !== except && turn.busy && turn.answering === agent && turn.since < since) {
        best = id;
        since = turn.since;
      }
    }
    return best;
  }

  follow(): () => void {
    const offs = [
      On("message:updated", ({ channel, message }) => this.#message(channel, message)),
      On("permission:requested", (request) => {
        this.#requests.set(request.id, request.channel);
        this.#countAsking();
      }),
      On("permission:resolved", ({ id }) => {
        if (this.#requests.delete(id)) this.#countAsking();
      }),
      On("turn:changed", ({ channel, busy, answering }) => {
        const previous = this.turns[channel];
        const since = previous && previous.answering === answering ? previous.since : performance.now();
        this.turns = { ...this.turns, [channel]: { busy, answering, since } };
      }),
      On("channels:changed", ({ channels: list }) => {
        const ids = new Set(list.map((c) => c.id));
        const keep = <T>(record: Record<string, T>): Record<string, T> =>
          Object.fromEntries(Object.entries(record).filter(([id]) => ids.has(id)));
        this.unread = keep(this.unread);
        this.turns = keep(this.turns);
        for (const [request, channel] of this.#requests) if (!ids.has(channel)) this.#requests.delete(request);
        this.#countAsking();
      }),
    ];
    return () => offs.forEach((off) => off());
  }

  #countAsking(): void {
    const counts: Record<string, number> = {};
    for (const channel of this.#requests.values()) counts[channel] = (counts[channel] ?? 0) + 1;
    this.asking = counts;
  }

  #message(channel: string, message: Message): void {
    const finished = message.role === "agent" && message.done;
    if (channel === this.shown()) return;
    const counts = finished || message.role === "system";
    if (!counts || this.#counted.has(message.id)) return;
    this.#counted.add(message.id);
    if (this.#counted.size > 5000) this.#counted.clear();
    this.unread = { ...this.unread, [channel]: (this.unread[channel] ?? 0) + 1 };
  }
}

export const activity = new Activity();
// Registered once for the page's life (like lib/theme.ts): the sidebar imports this module.
activity.follow();
