// The DOM half of headerFit.ts: an attachment for a conversation header that measures its parts
// whenever one of them changes size (ResizeObserver) or content (MutationObserver: an action
// that appears, a picker's value, a rename), sets the name's minimum width and folds the
// actions that do not fit. The header marks its parts:
//   [data-fit-titles]  the name and subtitle block (its min-width is set here);
//   [data-fit-name]    the name's line: its children are measured, `.title-text` and `.handle`
//                      may ellipsize;
//   [data-fit-actions] the actions' row, whose `[data-action]` boxes are the actions;
//   [data-fit-more]    the "⋯" menu, when shown (else MORE_WIDTH is reserved for it).
import type { Attachment } from "svelte/attachments";
import { foldActions, nameWidth, type Slot } from "./headerFit";

/** Past this, the title's text ellipsizes (about 18 characters of the header's title font). */
export const TITLE_CAP = 180;
/** What a long @handle keeps when room is short ("@gam…"): it gives way before the title (a
 *  whole 40-character handle pushed the state badge and the "⋯" out of a 760 px window). */
export const HANDLE_MIN = 48;

function capOf(part: Element): number | undefined {
  if (part.classList.contains("title-text")) return TITLE_CAP;
  if (part.classList.contains("handle")) return HANDLE_MIN;
  return undefined;
}
const MORE_WIDTH = 32;

function widthOf(element: Element | null): number {
  return element ? element.getBoundingClientRect().width : 0;
}

function gapOf(element: Element): number {
  return parseFloat(getComputedStyle(element).columnGap) || 0;
}

function measure(header: HTMLElement, moreAlways: boolean): string[] {
  const titles = header.querySelector<HTMLElement>("[data-fit-titles]");
  const name = header.querySelector<HTMLElement>("[data-fit-name]");
  const actions = header.querySelector<HTMLElement>("[data-fit-actions]");
  if (!titles || !actions) return [];
  const more = header.querySelector<HTMLElement>("[data-fit-more]");
  const parts = [...(name?.children ?? [])].map((part) => {
    const cap = capOf(part);
    const width = cap === undefined ? widthOf(part) : part.scrollWidth;
    // The handle shrinks first (its CSS), down to this; CSS cannot say "48 px or its own width".
    if (part.classList.contains("handle") && part instanceof HTMLElement) {
      part.style.minWidth = `${Math.min(width, HANDLE_MIN)}px`;
    }
    return { width, cap };
  });
  const need = Math.ceil(nameWidth(parts, name ? gapOf(name) : 0));
  titles.style.minWidth = `${need}px`;

  const style = getComputedStyle(header);
  const content = header.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const row = [...header.children].filter((child) => child !== more && getComputedStyle(child).display !== "none");
  const others = row.filter((child) => child !== titles && child !== actions);
  const fixed = others.reduce((sum, child) => sum + widthOf(child), 0);
  const available = content - fixed - need - gapOf(header) * (row.length - 1) - 1;

  const slots: Slot[] = [...actions.querySelectorAll<HTMLElement>("[data-action]")].map((slot) => ({
    id: slot.dataset.action ?? "",
    priority: Number(slot.dataset.priority ?? 100),
    width: widthOf(slot),
  }));
  const folded = foldActions(slots, {
    available,
    gap: gapOf(actions),
    more: more ? widthOf(more) : MORE_WIDTH,
    moreAlways,
  });
  for (const slot of actions.querySelectorAll<HTMLElement>("[data-action]")) {
    slot.dataset.folded = String(folded.includes(slot.dataset.action ?? ""));
  }
  return folded;
}

// What is measured, besides the header itself: the name's parts, each action, the "⋯" button.
const PARTS = "[data-fit-name] > *, [data-action], [data-fit-more]";

/** Measures `header` now and after each change; `onfold` hears the folded ids when they change. */
export function fitHeader(moreAlways: boolean, onfold: (folded: string[]) => void): Attachment<HTMLElement> {
  return (header) => {
    let frame = 0;
    let last = "";
    const sizes = new ResizeObserver(() => schedule());
    const changes = new MutationObserver(() => schedule());

    // Only the parts that came are observed, and those that left forgotten: observing an
    // element always reports its size once, so observing them all again at each run (as this
    // did) made every run schedule the next: a frame drawn 60 times a second for as long as a
    // conversation was open, its header unchanged (a tenth of a core, in the window at rest).
    const observed = new Set<Element>();
    function observeAll(): void {
      const parts = new Set<Element>([header, ...header.querySelectorAll(PARTS)]);
      for (const part of observed) {
        if (!parts.has(part)) {
          sizes.unobserve(part);
          observed.delete(part);
        }
      }
      for (const part of parts) {
        if (!observed.has(part)) {
          sizes.observe(part);
          observed.add(part);
        }
      }
    }

    function run(): void {
      frame = 0;
      observeAll();
      const folded = measure(header, moreAlways);
      const key = folded.join(" ");
      if (key !== last) {
        last = key;
        onfold(folded);
      }
    }

    function schedule(): void {
      if (!frame) frame = requestAnimationFrame(run);
    }

    changes.observe(header, { childList: true, subtree: true, characterData: true, attributeFilter: ["data-value"] });
    run();
    return () => {
      cancelAnimationFrame(frame);
      sizes.disconnect();
      changes.disconnect();
    };
  };
}
