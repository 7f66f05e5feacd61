// Reopening on the conversation that was on screen last (InboxService.LastViewed: "" when
// there is none, or it was deleted since): at start only while the person has not gone elsewhere
// yet; after opening another configuration, in place of the view of the previous one.

import { InboxService } from "../../bindings";
import { navigation } from "../lib/navigation.svelte";

export async function reopenLastViewed(atStart: boolean): Promise<void> {
  const before = navigation.view;
  let id = "";
  try {
    id = await InboxService.LastViewed();
  } catch {
    return; // the default view stays
  }
  if (!id || navigation.view !== before) return; // nothing to reopen, or the person moved on
  if (atStart && !(before.kind === "agents" && !before.focus)) return;
  await navigation.go({ kind: "channel", id });
}
