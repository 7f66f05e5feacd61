// The form that creates or renames a channel (ChannelDialog shows it): opened from the sidebar's
// "New channel" and from a channel's header.

import type { Channel } from "../../bindings";

export type ChannelFormRequest = { mode: "create" } | { mode: "rename"; channel: Channel };

class ChannelForm {
  request = $state.raw<ChannelFormRequest | null>(null);

  create(): void {
    this.request = { mode: "create" };
  }

  rename(channel: Channel): void {
    this.request = { mode: "rename", channel };
  }

  close(): void {
    this.request = null;
  }
}

export const channelForm = new ChannelForm();
