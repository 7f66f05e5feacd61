// "New session" from the conversation header: asks first (what the agents will no longer be
// sent), then ChannelService.NewSession; its refusal (an answer in progress) is shown as is.
import { ChannelService, type Channel } from "../../bindings";
import { dialogs } from "../lib/dialogs.svelte";
import { messageOf } from "../lib/errors";
import { t } from "../lib/i18n.svelte";

export async function startNewSession(channel: Channel): Promise<boolean> {
  const choice = await dialogs.ask({
    title: channel.direct
      ? t("Start a new session with @{agent}?", { agent: channel.direct })
      : t("Start new sessions in #{channel}?", { channel: channel.name }),
    message: t(
      "The agents start afresh: the messages so far stay here to read, but they are not sent to the agents again.",
    ),
    choices: [
      { id: "cancel", label: t("Cancel"), kind: "plain" },
      { id: "start", label: t("Start a new session"), kind: "primary" },
    ],
  });
  if (choice !== "start") return false;
  try {
    await ChannelService.NewSession(channel.id);
  } catch (err) {
    await dialogs.ask({
      title: t("A new session could not start"),
      message: messageOf(err),
      choices: [{ id: "ok", label: t("OK"), kind: "primary" }],
    });
    return false;
  }
  return true;
}
