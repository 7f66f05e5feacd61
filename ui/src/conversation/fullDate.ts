// A time's tooltip (its full date) made when the pointer first comes to it, not with each of
// the messages a conversation opens with: a long date format is ICU's date data to load
// (issue 29: 5 MB of the idle window, and the first open's time).

import type { Action } from "svelte/action";
import { dateTimeOf } from "./format";

/** `<time use:fullDate={iso}>`: its title, the full date of `iso`, set on pointerenter. */
export const fullDate: Action<HTMLElement, string> = (node, iso) => {
  let shown = iso;
  const show = (): void => {
    node.title = dateTimeOf(shown);
  };
  node.addEventListener("pointerenter", show);
  return {
    update(next: string) {
      shown = next;
      if (node.title) show(); // already shown once: kept true
    },
    destroy() {
      node.removeEventListener("pointerenter", show);
    },
  };
};
