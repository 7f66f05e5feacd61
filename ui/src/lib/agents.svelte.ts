// The agents of the configuration with their live state: List() for the whole picture (titles,
// `outdated`…), `agent:state` events for the state in between.

import { AgentService, On, type AgentInfo } from "../../bindings";
import { messageOf } from "./errors";

export type AgentState = AgentInfo["state"];

class AgentsStore {
  list = $state<AgentInfo[]>([]);
  loaded = $state(false);
  loadError = $state("");

  // A List() answer may predate an event that arrived while it was on its way: each event bumps
  // its agent's counter, and a reload keeps the event's state for agents bumped since it began.
  #eventCount = new Map<string, number>();
  #reloadTimer: ReturnType<typeof setTimeout> | undefined;

  async reload(): Promise<void> {
    const before = new Map(this.#eventCount);
    try {
      const fresh = await AgentService.List();
      const current = new Map(this.list.map((a) => [a.name, a]));
      this.list = fresh.map((agent) => {
        const seen = current.get(agent.name);
        const bumped = (this.#eventCount.get(agent.name) ?? 0) !== (before.get(agent.name) ?? 0);
        return bumped && seen ? { ...agent, state: seen.state, error: seen.error } : agent;
      });
      this.loaded = true;
      this.loadError = "";
    } catch (err) {
      this.loadError = messageOf(err);
    }
  }

  /** Coalesces the reloads asked for by a burst of events into one List(). */
  #reloadSoon(): void {
    clearTimeout(this.#reloadTimer);
    this.#reloadTimer = setTimeout(() => void this.reload(), 150);
  }

  // By name, made once per change of the list: every avatar, chip and badge of a conversation
  // asks, and a scan of the list's proxy per ask was 3-5 ms of a 100-message open (issue 29).
  #byName = $derived(new Map(this.list.map((a) => [a.name, a])));

  byName(name: string): AgentInfo | undefined {
    return this.#byName.get(name);
  }

  /** Loads, then follows states live and reloads when the configuration changes. */
  follow(): () => void {
    void this.reload();
    const offs = [
      On("agent:state", ({ agent, state, error }) => {
        this.#eventCount.set(agent, (this.#eventCount.get(agent) ?? 0) + 1);
        const row = this.list.find((a) => a.name === agent);
        if (row) {
          row.state = state;
          row.error = error ?? "";
        }
        // The event is also sent when a definition changes: List() knows about `outdated`.
        this.#reloadSoon();
      }),
      On("config:changed", () => this.#reloadSoon()),
    ];
    return () => {
      clearTimeout(this.#reloadTimer);
      offs.forEach((off) => off());
    };
  }
}

export const agents = new AgentsStore();
