// The keyboard of a menu button (WAI-ARIA's menu button pattern, as Menu.svelte uses it): pure,
// so that each key's meaning is tested without a page. Enter and Space are the items' own: they
// are buttons, and a click on an item chooses it.

/** What a key pressed in an open menu does. */
export type MenuKeyAction = { kind: "focus"; index: number } | { kind: "close"; refocus: boolean } | null;

/**
 * A key pressed while the menu is open, the item at `at` focused (-1: the focus is on the
 * trigger) among `count` items. ↓/↑ move and wrap around, Home/End go to the ends, Escape closes
 * and gives the focus back to the trigger, Tab closes and lets the focus move on.
 */
export function menuKey(key: string, at: number, count: number): MenuKeyAction {
  if (key === "Escape") return { kind: "close", refocus: true };
  if (key === "Tab") return { kind: "close", refocus: false };
  if (count === 0) return null;
  switch (key) {
    case "ArrowDown":
      return { kind: "focus", index: (at + 1) % count };
    case "ArrowUp":
      return { kind: "focus", index: at < 0 ? count - 1 : (at - 1 + count) % count };
    case "Home":
      return { kind: "focus", index: 0 };
    case "End":
      return { kind: "focus", index: count - 1 };
    default:
      return null;
  }
}

/** How a closed menu opens: with a click (or Enter, Space) on its trigger, or ↓/↑ on it. */
export type MenuOpening = "click" | "ArrowDown" | "ArrowUp";

/** The key pressed on a closed menu's trigger that opens it, if it is one. */
export function openingKey(key: string): MenuOpening | null {
  return key === "ArrowDown" || key === "ArrowUp" ? key : null;
}

/**
 * The item that takes the focus when the menu opens: ↑ goes to the last one; a click and ↓ go
 * to the `current` one (a menu of choices: the checked one), else the first.
 */
export function openingIndex(how: MenuOpening, current: number, count: number): number {
  if (count === 0) return -1;
  if (how === "ArrowUp") return count - 1;
  return current >= 0 && current < count ? current : 0;
}
