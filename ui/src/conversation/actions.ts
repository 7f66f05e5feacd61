// Conversation actions the sidebar and the views share.

import { ChannelService, type Channel } from "../../bindings";
import { channels } from "../lib/channels.svelte";
import { dialogs, type Question } from "../lib/dialogs.svelte";
import { messageOf } from "../lib/errors";
import { t } from "../lib/i18n.svelte";
import { navigation } from "../lib/navigation.svelte";

/** Opens the agent's most recently used conversation (issue 28: it may have several), or its
 *  direct conversation (created the first time). */
export async function openDirect(agent: string): Promise<void> {
  try {
    const channel = latestWith(agent) ?? (await ChannelService.Direct(agent));
    await navigation.go({ kind: "channel", id: channel.id });
  } catch (err) {
    await dialogs.ask({
      title: t("The conversation could not be opened"),
      message: messageOf(err),
      choices: [{ id: "ok", label: t("OK"), kind: "primary" }],
    });
  }
}

/** Asks, then deletes the channel (or direct conversation, issue 28) and all its messages;
 *  resolves to whether it was deleted. */
export async function deleteChannel(channel: Channel): Promise<boolean> {
  const choice = await dialogs.ask(channel.direct ? directQuestion(channel) : channelQuestion(channel));
  if (choice !== "delete") return false;
  // Read before the call: the channel list's change (pushed as an event) may arrive before the
  // call's answer, and the view may already have left the deleted conversation by then.
  const before = navigation.view;
  const shown = before.kind === "channel" && before.id === channel.id;
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
  if (shown) {
    // A deleted conversation gives way to the agent's newest other one, if it has one.
    const next = channel.direct ? latestWith(channel.direct, channel.id) : undefined;
    await navigation.go(next ? { kind: "channel", id: next.id } : { kind: "agents" });
  }
  return true;
}

/** The agent's most recently used conversation (but `other`), if it has one. */
function latestWith(agent: string, other = ""): Channel | undefined {
  const when = (c: Channel): string => c.lastActivity || c.createdAt;
  return channels.all
    .filter((c) => c.direct === agent && c.id !== other)
    .reduce<Channel | undefined>((best, c) => (!best || when(c) > when(best) ? c : best), undefined);
}

function channelQuestion(channel: Channel): Question {
  return {
    title: t("Delete #{channel}?", { channel: channel.name }),
    message: t(
      "Its answers in progress are stopped, and the channel is deleted with all its messages. This cannot be undone.",
    ),
    choices: [
      { id: "cancel", label: t("Cancel"), kind: "plain" },
      { id: "delete", label: t("Delete the channel"), kind: "danger" },
    ],
  };
}

function directQuestion(channel: Channel): Question {
  return {
    title: channel.title
      ? t("Delete the conversation “{title}”?", { title: channel.title })
      : t("Delete this conversation?"),
    message: t(
      "Its answer in progress is stopped, and the conversation is deleted with all its messages. This cannot be undone.",
    ),
    choices: [
      { id: "cancel", label: t("Cancel"), kind: "plain" },
      { id: "delete", label: t("Delete the conversation"), kind: "danger" },
    ],
  };
}
