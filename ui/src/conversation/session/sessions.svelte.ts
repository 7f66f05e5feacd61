// Each channel's member sessions (their modes and options), from Conversation(id).sessions and
// kept live by `session:changed`, with the changes the person asked for and not yet answered.
//
// A change is shown at once as pending (its control disabled) with the value asked for; when
// SetMode/SetOption answers, the session it returns replaces the one known; when it fails, the
// pending value is dropped, so the control shows the last known value again, and the error's
// sentence is kept for the member until its next change or until the person dismisses it.
//
// Ordering: snapshots (a Conversation() answer, a Set…() answer) may be older than an event that
// arrived while they were on their way; an agent's session is only replaced by a snapshot when no
// `session:changed` about it arrived since the request was made.

import { On, SessionService, type MemberSession } from "../../../bindings";
import { messageOf } from "../../lib/errors";
import { MODE_KEY, optionKey } from "./pickers";

type Sessions = Readonly<Record<string, MemberSession>>;

function memberKey(channel: string, agent: string): string {
  return `${channel}\u0000${agent}`;
}

function pendingKey(channel: string, agent: string, key: string): string {
  return `${channel}\u0000${agent}\u0000${key}`;
}

export class SessionsStore {
  /** channel id → agent → its session as last known. */
  byChannel = $state.raw<Readonly<Record<string, Sessions>>>({});
  /** Values asked for and not answered yet, by pendingKey(channel, agent, picker key). */
  pending = $state.raw<Readonly<Record<string, string | boolean>>>({});
  /** The last failed change's sentence, by memberKey(channel, agent). */
  errors = $state.raw<Readonly<Record<string, string>>>({});

  /** Counts `session:changed` events; #heardAt[member] is the count when one last came. */
  #events = 0;
  #heardAt = new Map<string, number>();
  /** Bumped when the configuration changes: answers to older requests are ignored. */
  #generation = 0;

  /** The session of `agent` in `channel`, if it is known. */
  of(channel: string, agent: string): MemberSession | undefined {
    return this.byChannel[channel]?.[agent];
  }

  /** The value asked for and not answered yet for a picker (undefined: nothing pending). */
  pendingValue(channel: string, agent: string, key: string): string | boolean | undefined {
    return this.pending[pendingKey(channel, agent, key)];
  }

  /** The sentence of the member's last failed change ("" when none). */
  errorOf(channel: string, agent: string): string {
    return this.errors[memberKey(channel, agent)] ?? "";
  }

  dismissError(channel: string, agent: string): void {
    this.#setError(channel, agent, "");
  }

  /** Called before a conversation is loaded; the function it returns takes the loaded
   *  `sessions` and keeps them, except those of agents whose session changed meanwhile. */
  loading(channel: string): (sessions: Sessions) => void {
    const since = this.#events;
    const generation = this.#generation;
    return (sessions) => {
      if (generation !== this.#generation) return;
      const kept: Record<string, MemberSession> = { ...this.byChannel[channel] };
      for (const [agent, session] of Object.entries(sessions ?? {})) {
        if (!this.#changedSince(channel, agent, since)) kept[agent] = session;
      }
      this.byChannel = { ...this.byChannel, [channel]: kept };
    };
  }

  /** Asks the member's session to switch to mode `modeId`. */
  setMode(channel: string, agent: string, modeId: string): Promise<void> {
    return this.#change(channel, agent, MODE_KEY, modeId, () =>
      SessionService.SetMode(channel, agent, modeId),
    );
  }

  /** Asks the member's session to set option `optionId` to `value`. */
  setOption(channel: string, agent: string, optionId: string, value: string | boolean): Promise<void> {
    return this.#change(channel, agent, optionKey(optionId), value, () =>
      SessionService.SetOption(channel, agent, optionId, value),
    );
  }

  /** Subscribes to the events; returns the function that unsubscribes. */
  follow(): () => void {
    const offs = [
      On("session:changed", ({ channel, agent, session }) => {
        this.#events += 1;
        this.#heardAt.set(memberKey(channel, agent), this.#events);
        this.#put(channel, agent, session);
      }),
      On("config:changed", () => {
        // Another configuration may have another history: its channels are loaded anew.
        this.#generation += 1;
        this.byChannel = {};
        this.pending = {};
        this.errors = {};
        this.#heardAt.clear();
      }),
    ];
    return () => offs.forEach((off) => off());
  }

  async #change(
    channel: string,
    agent: string,
    key: string,
    value: string | boolean,
    request: () => Promise<MemberSession>,
  ): Promise<void> {
    const slot = pendingKey(channel, agent, key);
    if (slot in this.pending) return; // its control is disabled: a second click changes nothing
    const since = this.#events;
    const generation = this.#generation;
    this.#setError(channel, agent, "");
    this.pending = { ...this.pending, [slot]: value };
    try {
      const session = await request();
      if (generation !== this.#generation) return;
      if (!this.#changedSince(channel, agent, since)) this.#put(channel, agent, session);
    } catch (err) {
      if (generation !== this.#generation) return;
      this.#setError(channel, agent, messageOf(err));
    } finally {
      if (generation === this.#generation) {
        const { [slot]: _done, ...rest } = this.pending;
        this.pending = rest;
      }
    }
  }

  #changedSince(channel: string, agent: string, since: number): boolean {
    return (this.#heardAt.get(memberKey(channel, agent)) ?? 0) > since;
  }

  #put(channel: string, agent: string, session: MemberSession): void {
    this.byChannel = {
      ...this.byChannel,
      [channel]: { ...this.byChannel[channel], [agent]: session },
    };
  }

  #setError(channel: string, agent: string, sentence: string): void {
    const key = memberKey(channel, agent);
    if ((this.errors[key] ?? "") === sentence) return;
    const { [key]: _old, ...rest } = this.errors;
    this.errors = sentence ? { ...rest, [key]: sentence } : rest;
  }
}

export const memberSessions = new SessionsStore();
// Registered once for the page's life: an agent may change its mode in any channel, shown or not.
memberSessions.follow();
