// A click on a message link in a rendered message opens that conversation at that message (the
// main area loads the page around it and highlights it). The window would refuse to go to a
// `sidekicks:` address anyway (app/bridge/navigation.py); here it never tries.

import { navigation } from "../../lib/navigation.svelte";
import { parseMessageLink } from "../../lib/messageLinks";

let installed = false;

/** Listens once for the whole page (every message's links, whenever they are rendered). */
export function followMessageLinks(): void {
  if (installed || typeof document === "undefined") return;
  installed = true;
  document.addEventListener("click", onclick, { capture: true });
  document.addEventListener("auxclick", onclick, { capture: true }); // a middle click: no new window
}

function onclick(event: MouseEvent): void {
  const anchor = (event.target as Element | null)?.closest?.(".markdown a[href]");
  const target = parseMessageLink(anchor?.getAttribute("href"));
  if (!target) return;
  event.preventDefault();
  event.stopPropagation();
  if (event.type === "click" && event.button === 0)
    void navigation.go({ kind: "channel", id: target.channel, at: target.message });
}
