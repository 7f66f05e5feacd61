// The message list as one Tab stop (issue 29), as a feed of messages with a roving tabindex:
// one message (the one the keyboard was last on, else the newest) is in the Tab order; Up and
// Down, Home and End move between messages; Enter goes into the message (its actions first,
// then its links, cards and code blocks), where Tab and Shift+Tab move within it alone and
// Escape comes back to the message; Tab from the message leaves the list (to the composer).
// Exception: a message with a pending permission prompt takes Tab into the prompt's buttons,
// as the prompt says ("or Tab to the buttons").
// Every other focusable thing inside the list stays out of the page's Tab order without being
// touched (messages are many and stream): the keys are handled here, and the focus that Tab
// brings in from outside lands on the list's stop.

/** What the keyboard moves between: the person's and agents' messages, and system lines. */
export const ITEM = "[data-item]";

const FOCUSABLE = [
  "a[href]",
  "button:not(:disabled)",
  "input:not(:disabled):not([type=hidden])",
  "select:not(:disabled)",
  "textarea:not(:disabled)",
  "summary",
  "[tabindex]",
  "[contenteditable=true]",
].join(", ");

/** The elements of `root` that Tab would reach, in document order (shown ones only). */
export function tabbables(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(isTabbable);
}

function isTabbable(el: HTMLElement): boolean {
  if (el.tabIndex < 0 || el.closest("[inert]")) return false;
  // Inside a closed <details>, only its summary is shown.
  const folded = el.closest("details:not([open])");
  if (folded && el.parentElement !== folded) return false;
  return el.getClientRects().length > 0;
}

/** The item holding `node`, if it is in `list`. */
export function itemOf(list: HTMLElement, node: EventTarget | null): HTMLElement | null {
  if (!(node instanceof Element) || !list.contains(node)) return null;
  return node.closest<HTMLElement>(ITEM);
}

/** The first thing Tab reaches after `list` (forward) or before it (backward), outside it. */
export function beyond(list: HTMLElement, forward: boolean, page: Document = document): HTMLElement | null {
  const all = tabbables(page).filter((el) => !list.contains(el) && !el.contains(list));
  const after = (el: HTMLElement): boolean => !!(list.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  return forward ? (all.find(after) ?? null) : (all.filter((el) => !after(el)).pop() ?? null);
}

function show(el: HTMLElement): void {
  el.focus({ preventScroll: true });
  el.scrollIntoView({ block: "nearest" });
}

/** Handles a keydown in the list; true when it did something with it. */
export function listKey(list: HTMLElement, event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return false;
  const item = itemOf(list, event.target);
  if (!item) return false;
  return event.target === item ? onItem(list, item, event) : inItem(list, item, event);
}

function onItem(list: HTMLElement, item: HTMLElement, event: KeyboardEvent): boolean {
  const items = [...list.querySelectorAll<HTMLElement>(ITEM)];
  const here = items.indexOf(item);
  const to = (index: number): boolean => {
    const next = items[index];
    if (next && next !== item) show(next);
    return true;
  };
  switch (event.key) {
    case "ArrowUp":
      return to(here - 1);
    case "ArrowDown":
      return to(here + 1);
    case "Home":
      return to(0);
    case "End":
      return to(items.length - 1);
    case "Enter": {
      const first = tabbables(item)[0];
      first?.focus();
      return first !== undefined;
    }
    case "Tab": {
      const asked = event.shiftKey ? undefined : pendingAnswers(item)[0];
      const next = asked ?? beyond(list, !event.shiftKey);
      next?.focus();
      return next !== null;
    }
  }
  return false;
}

function inItem(list: HTMLElement, item: HTMLElement, event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement;
  const inside = tabbables(item);
  const here = inside.indexOf(target);
  if (event.key === "Escape") {
    item.focus();
    return true;
  }
  if (event.key === "Tab") {
    const next = event.shiftKey ? (inside[here - 1] ?? item) : (inside[here + 1] ?? beyond(list, true));
    next?.focus();
    return next !== null;
  }
  // Left and Right move along the actions' toolbar.
  const bar = target.closest("[data-testid=message-actions]");
  if (bar && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
    const buttons = tabbables(bar);
    const next = buttons[buttons.indexOf(target) + (event.key === "ArrowLeft" ? -1 : 1)];
    next?.focus();
    return true;
  }
  return false;
}

function pendingAnswers(item: HTMLElement): HTMLElement[] {
  return [...item.querySelectorAll<HTMLElement>("[data-testid=permission][data-state=pending]")].flatMap(tabbables);
}

/** Tab brought the focus into the list from outside, onto something else than its stop. */
export function enteredAside(list: HTMLElement, event: FocusEvent, stop: HTMLElement | null): boolean {
  const from = event.relatedTarget;
  if (from instanceof Node && list.contains(from)) return false;
  return stop !== null && event.target !== stop;
}
