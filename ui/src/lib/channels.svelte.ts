// Channels and direct conversations (ChannelService.List()), kept current by `channels:changed`.

import { ChannelService, On, type Channel } from "../../bindings";
import { messageOf } from "./errors";

class ChannelsStore {
  all = $state<Channel[]>([]);
  loadError = $state("");
  /** Whether List() has answered once (until then "no channels" is not known). */
  loaded = $state(false);

  /** Named channels, oldest first. */
  get channels(): Channel[] {
    return this.all.filter((c) => !c.direct);
  }

  /** The direct conversation of each agent that has one, by agent name. */
  get directs(): Map<string, Channel> {
    return new Map(this.all.filter((c) => c.direct).map((c) => [c.direct, c]));
  }

  byId(id: string): Channel | undefined {
    return this.all.find((c) => c.id === id);
  }

  async reload(): Promise<void> {
    try {
      this.all = await ChannelService.List();
      this.loaded = true;
      this.loadError = "";
    } catch (err) {
      this.loadError = messageOf(err);
    }
  }

  follow(): () => void {
    void this.reload();
    const offs = [
      On("channels:changed", ({ channels }) => {
        this.all = channels;
      }),
      // Another configuration file means another history.
      On("config:changed", () => void this.reload()),
    ];
    return () => offs.forEach((off) => off());
  }
}

export const channels = new ChannelsStore();
