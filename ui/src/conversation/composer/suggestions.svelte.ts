// The composer's completion list: the items offered at the caret (completion.ts: `@` agents,
// `/` commands), the one selected, and what the keys do while the list is open. Escape closes
// it until the text changes.

import { agents } from "../../lib/agents.svelte";
import { commands } from "../commands.svelte";
import { alreadyComplete, complete, type Completion, type Item } from "../completion";
import type { RouteContext } from "../routing";

export interface Typed {
  text: string;
  caret: number;
  context: RouteContext;
}

/** A key the list took (the box must not act on it), or an item to put in the text. */
export type SuggestionKey = { kind: "taken" } | { kind: "accept"; item: Item };

export class Suggestions {
  selected = $state(0);
  #dismissed = $state(""); // the text at which Escape closed the list
  readonly #typed: () => Typed;

  /** The open list (null: closed). */
  readonly list = $derived.by((): Completion | null => {
    const { text, caret, context } = this.#typed();
    if (this.#dismissed === text) return null;
    const found = complete(text, caret, {
      ...context,
      agents: agents.list,
      commandsOf: (agent) => commands.of(agent),
    });
    return found && found.items.length ? found : null;
  });

  readonly active = $derived(this.list ? Math.min(this.selected, this.list.items.length - 1) : 0);

  constructor(typed: () => Typed) {
    this.#typed = typed;
  }

  /** `item` chosen: the text with it in place of the typed word, and the caret after it. */
  accept(item: Item, text: string): { text: string; caret: number } | null {
    const list = this.list;
    if (!list) return null;
    this.selected = 0;
    return { text: text.slice(0, list.from) + item.insert + text.slice(list.to), caret: list.from + item.insert.length };
  }

  /**
   * What `event` does while the list is open (null: not the list's key, or the list is closed).
   * ↓/↑ move and wrap; Tab accepts; Enter accepts, unless the word is typed in full (then it
   * sends); Escape closes the list.
   */
  key(event: KeyboardEvent): SuggestionKey | null {
    const list = this.list;
    if (!list) return null;
    const count = list.items.length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      this.selected = (this.active + (event.key === "ArrowDown" ? 1 : count - 1)) % count;
      return { kind: "taken" };
    }
    if ((event.key === "Enter" && !event.shiftKey) || event.key === "Tab") {
      const item = list.items[this.active];
      const sends = event.key === "Enter" && item !== undefined && alreadyComplete(this.#typed().text, list, item);
      if (item && !sends) return { kind: "accept", item };
    }
    if (event.key === "Escape") {
      this.#dismissed = this.#typed().text;
      return { kind: "taken" };
    }
    return null;
  }
}
