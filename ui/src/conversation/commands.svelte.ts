// Each agent's slash commands (ChannelService.Commands, kept from one launch to the next), kept
// current by `commands:changed`, for the composer's `/` completion.

import { ChannelService, On, type Command } from "../../bindings";

class CommandsStore {
  byAgent = $state.raw<Record<string, Command[]>>({});
  #asked = new Set<string>();

  /** The commands known for `agent`; asks the backend the first time. */
  of(agent: string): Command[] {
    this.ensure(agent);
    return this.byAgent[agent] ?? [];
  }

  ensure(agent: string): void {
    if (this.#asked.has(agent)) return;
    this.#asked.add(agent);
    ChannelService.Commands(agent).then(
      (commands) => {
        // An announcement that arrived meanwhile is newer than this answer.
        if (!(agent in this.byAgent)) this.byAgent = { ...this.byAgent, [agent]: commands };
      },
      () => this.#asked.delete(agent), // an agent that left the configuration: ask again later
    );
  }

  follow(): () => void {
    const offs = [
      On("commands:changed", ({ agent, commands }) => {
        this.#asked.add(agent);
        this.byAgent = { ...this.byAgent, [agent]: commands };
      }),
      On("config:changed", () => {
        // Another configuration may have other agents, or another history.
        this.#asked.clear();
        this.byAgent = {};
      }),
    ];
    return () => offs.forEach((off) => off());
  }
}

export const commands = new CommandsStore();
// Registered once for the page's life: announcements come whichever conversation is shown.
commands.follow();
