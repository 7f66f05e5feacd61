// Work for elements that can wait until they come near the screen (code blocks' colours and
// copy buttons): a conversation opens with 100 messages, most of them off-screen, and colouring
// all their code at once was most of the time it took to show them.
//
// "Near" is measured in the scrolling element marked `data-near-root` around the element (the
// message list), else in the window: an IntersectionObserver's margin only widens its root, and
// a scrolling element between the two would clip everything outside its own box.

// Ahead of the screen by about a screen, so that scrolling shows blocks already coloured.
const NEAR_MARGIN = 1000;

const waiting = new Map<Element, { run: () => void; observer: IntersectionObserver }>();
// One observer per root, gone with it (a conversation closed); the window's lives on.
const observers = new WeakMap<Element, IntersectionObserver>();
let windowObserver: IntersectionObserver | undefined;

function seen(entries: IntersectionObserverEntry[]): void {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    const run = waiting.get(entry.target)?.run;
    forget(entry.target);
    run?.();
  }
}

function forget(element: Element): void {
  waiting.get(element)?.observer.unobserve(element);
  waiting.delete(element);
}

function observerFor(root: Element | null): IntersectionObserver {
  const options = { root, rootMargin: `${NEAR_MARGIN}px 0px` };
  if (!root) return (windowObserver ??= new IntersectionObserver(seen, options));
  let observer = observers.get(root);
  if (!observer) {
    observer = new IntersectionObserver(seen, options);
    observers.set(root, observer);
  }
  return observer;
}

/** The scrolling element `element` is measured in (null: the window). */
function nearRoot(element: Element): Element | null {
  return element.closest("[data-near-root]");
}

/** Runs `run` once `element` is near the screen; the returned function cancels it. */
export function whenNearScreen(element: Element, run: () => void): () => void {
  if (typeof IntersectionObserver === "undefined") {
    run();
    return () => {};
  }
  forget(element);
  const observer = observerFor(nearRoot(element));
  waiting.set(element, { run, observer });
  observer.observe(element);
  return () => forget(element);
}
