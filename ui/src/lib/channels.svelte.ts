// Channels and direct conversations (ChannelService.List()), kept current by `channels:changed`.
// An agent's several direct conversations are grouped by frame/conversations.ts (issue 28).

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
