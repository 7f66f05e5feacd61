// Conversation actions the sidebar and the views share.

import { ChannelService, type Channel } from "../../bindings";
import { dialogs } from "../lib/dialogs.svelte";
import { messageOf } from "../lib/errors";
import { t } from "../lib/i18n.svelte";
import { navigation } from "../lib/navigation.svelte";

/** Opens the direct conversation with `agent` (created the first time). */
export async function openDirect(agent: string): Promise<void> {
  try {
    const channel = await ChannelService.Direct(agent);
    await navigation.go({ kind: "channel", id: channel.id });
  } catch (err) {
    await dialogs.ask({
      title: t("The conversation could not be opened"),
      message: messageOf(err),
      choices: [{ id: "ok", label: t("OK"), kind: "primary" }],
    });
  }
}

/** Asks, then deletes the channel and all its messages; resolves to whether it was deleted. */
export async function deleteChannel(channel: Channel): Promise<boolean> {
  const choice = await dialogs.ask({
    title: t("Delete #{channel}?", { channel: channel.name }),
    message: t(
      "Its answers in progress are stopped, and the channel is deleted with all its messages. This cannot be undone.",
    ),
    choices: [
      { id: "cancel", label: t("Cancel"), kind: "plain" },
      { id: "delete", label: t("Delete the channel"), kind: "danger" },
    ],
  });
  if (choice !== "delete") return false;
  try {
    await ChannelService.Delete(channel.id);
  } catch (err) {
    await dialogs.ask({
      title: t("The channel could not be deleted"),
      message: messageOf(err),
      choices: [{ id: "ok", label: t("OK"), kind: "primary" }],
    });
    return false;
  }
  const view = navigation.view;
  if (view.kind === "channel" && view.id === channel.id) await navigation.go({ kind: "agents" });
  return true;
}
