// Bringing a message into view when a conversation opens at it (search, a link, a notification):
// in the middle of the list (its top when it is taller than the view), highlighted for a few
// seconds (ConversationView's `[data-highlighted]` style fades it), and focused so that a screen
// reader reads it and the keyboard scrolls from there.

import { fillWithin } from "./parts/fillSoon";

/** How long the highlight lasts (the style's fade takes the same time). */
export const HIGHLIGHT_MS = 4000;

const timers = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();

/** Frames at most during which the message is brought back to the middle when it moved: the
 *  messages around it are laid out only once near the screen (content-visibility), which
 *  changes their heights after the first scroll. Done once it stayed put for STILL_FRAMES, or
 *  as soon as the person scrolls. */
const SETTLE_FRAMES = 60;
const STILL_FRAMES = 3;
const PERSON_SCROLLS = ["wheel", "pointerdown", "keydown", "touchstart"] as const;

/** Scrolls `scroller` to the message with this id, highlights and focuses it; false when it is
 *  not rendered. */
export function revealMessage(scroller: HTMLElement, id: string): boolean {
  const element = scroller.querySelector<HTMLElement>(`[data-testid=message][data-id="${CSS.escape(id)}"]`);
  if (!element) return false;
  fillWithin(element); // its text first: it is what the person came for (and it sets its height)
  centre(scroller, element);
  highlight(element);
  if (!element.hasAttribute("tabindex")) element.tabIndex = -1;
  element.focus({ preventScroll: true });
  let frames = SETTLE_FRAMES;
  let still = 0;
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    for (const name of PERSON_SCROLLS) scroller.removeEventListener(name, stop);
  };
  for (const name of PERSON_SCROLLS) scroller.addEventListener(name, stop, { passive: true });
  const settle = (): void => {
    if (stopped || !element.isConnected || --frames < 0) return stop();
    still = centre(scroller, element) ? 0 : still + 1;
    if (still >= STILL_FRAMES) return stop();
    requestAnimationFrame(settle);
  };
  requestAnimationFrame(settle);
  return true;
}

/** Puts the element in the middle of the scroller (its top at the top when it is taller);
 *  true when it had to move. */
function centre(scroller: HTMLElement, element: HTMLElement): boolean {
  const view = scroller.getBoundingClientRect();
  const box = element.getBoundingClientRect();
  const margin = Math.max(0, (scroller.clientHeight - box.height) / 2);
  const off = box.top - view.top - margin;
  if (Math.abs(off) < 1) return false;
  const before = scroller.scrollTop;
  scroller.scrollTop += off;
  return scroller.scrollTop !== before; // at an end of the list it cannot move further
}

function highlight(element: HTMLElement): void {
  clearTimeout(timers.get(element));
  // Asked again: the animation starts over (removed, laid out, set again).
  element.removeAttribute("data-highlighted");
  void element.offsetWidth;
  element.dataset.highlighted = "true";
  timers.set(
    element,
    setTimeout(() => element.removeAttribute("data-highlighted"), HIGHLIGHT_MS),
  );
}
