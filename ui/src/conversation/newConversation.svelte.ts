// "New conversation" (issue 28): Ctrl/Cmd+N, the "+" beside an agent in the sidebar and the
// button in a direct conversation's header. With the agent of the conversation on screen (or the
// only agent configured) it starts at once; otherwise the picker asks which agent.

import { ChannelService } from "../../bindings";
import { agents } from "../lib/agents.svelte";
import { channels } from "../lib/channels.svelte";
import { dialogs } from "../lib/dialogs.svelte";
import { messageOf } from "../lib/errors";
import { t } from "../lib/i18n.svelte";
import { navigation } from "../lib/navigation.svelte";

class ConversationPicker {
  /** Whether the picker of agents is open. */
  open = $state(false);
}

export const conversationPicker = new ConversationPicker();

/** Makes another conversation with `agent` and opens it. */
export async function newConversation(agent: string): Promise<void> {
  conversationPicker.open = false;
  try {
    const channel = await ChannelService.NewConversation(agent);
    await navigation.go({ kind: "channel", id: channel.id });
  } catch (err) {
    await dialogs.ask({
      title: t("The conversation could not be started"),
      message: messageOf(err),
      choices: [{ id: "ok", label: t("OK"), kind: "primary" }],
    });
  }
}

/** The agent a new conversation is for without asking: the one of the direct conversation on
 *  screen, else the only agent configured; "" when the person has to choose. */
export function impliedAgent(): string {
  const view = navigation.view;
  const open = view.kind === "channel" ? channels.byId(view.id) : undefined;
  if (open?.direct) return open.direct;
  const list = agents.list;
  return list.length === 1 ? list[0]!.name : "";
}

/** Ctrl/Cmd+N: a new conversation with the implied agent, or the picker. */
export function startNewConversation(): void {
  const agent = impliedAgent();
  if (agent) void newConversation(agent);
  else conversationPicker.open = true;
}
