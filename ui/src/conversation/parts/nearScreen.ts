// Work for elements that can wait until they come near the screen (code blocks' colours and
// copy buttons): a conversation opens with 100 messages, most of them off-screen, and colouring
// all their code at once was most of the time it took to show them.

// Ahead of the screen by about a screen, so that scrolling shows blocks already coloured.
const MARGIN = "1000px 0px";

const waiting = new Map<Element, () => void>();
let observer: IntersectionObserver | undefined;

function seen(entries: IntersectionObserverEntry[]): void {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    const run = waiting.get(entry.target);
    forget(entry.target);
    run?.();
  }
}

function forget(element: Element): void {
  waiting.delete(element);
  observer?.unobserve(element);
}

/** Runs `run` once `element` is near the screen; the returned function cancels it. */
export function whenNearScreen(element: Element, run: () => void): () => void {
  if (typeof IntersectionObserver === "undefined") {
    run();
    return () => {};
  }
  observer ??= new IntersectionObserver(seen, { rootMargin: MARGIN });
  waiting.set(element, run);
  observer.observe(element);
  return () => forget(element);
}
