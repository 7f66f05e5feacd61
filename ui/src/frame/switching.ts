// Alt+Up/Down and Ctrl+Tab/Ctrl+Shift+Tab (issue 29): the previous or next conversation in the
// sidebar's visible order (channels, then each agent's conversations), round at the ends.

/** The conversation `step` away from `current` in `order`; from nowhere (an agents or settings
 *  panel), Down or Tab goes to the first and Up to the last. */
export function nextConversation(order: readonly string[], current: string, step: 1 | -1): string | undefined {
  if (order.length === 0) return undefined;
  const at = order.indexOf(current);
  if (at < 0) return step === 1 ? order[0] : order[order.length - 1];
  return order[(at + step + order.length) % order.length];
}

/** Which way the key moves, or 0 when it is not one of the switching keys. */
export function switchStep(event: KeyboardEvent): 1 | -1 | 0 {
  if (event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
    if (event.key === "ArrowDown") return 1;
    if (event.key === "ArrowUp") return -1;
  }
  if (event.ctrlKey && !event.altKey && !event.metaKey && event.key === "Tab") return event.shiftKey ? -1 : 1;
  return 0;
}

/** The conversations the sidebar shows, top to bottom. */
export function sidebarOrder(): string[] {
  const rows = document.querySelectorAll<HTMLElement>("[data-testid=sidebar] [data-conversation]");
  return [...rows].map((row) => row.dataset.conversation ?? "").filter(Boolean);
}
