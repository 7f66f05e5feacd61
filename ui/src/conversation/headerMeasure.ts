// The DOM half of headerFit.ts: an attachment for a conversation header that measures its parts
// whenever one of them changes size (ResizeObserver) or content (MutationObserver: an action
// that appears, a picker's value, a rename), sets the name's minimum width and folds the
// actions that do not fit. The header marks its parts:
//   [data-fit-titles]  the name and subtitle block (its min-width is set here);
//   [data-fit-name]    the name's line: its children are measured, `.title-text` may ellipsize;
//   [data-fit-actions] the actions' row, whose `[data-action]` boxes are the actions;
//   [data-fit-more]    the "⋯" menu, when shown (else MORE_WIDTH is reserved for it).
import type { Attachment } from "svelte/attachments";
import { foldActions, nameWidth, type Slot } from "./headerFit";

/** Past this, the title's text ellipsizes (about 18 characters of the header's title font). */
export const TITLE_CAP = 180;
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
    const shrinks = part.classList.contains("title-text");
    return { width: shrinks ? part.scrollWidth : widthOf(part), shrinks };
  });
  const need = Math.ceil(nameWidth(parts, name ? gapOf(name) : 0, TITLE_CAP));
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

/** Measures `header` now and after each change; `onfold` hears the folded ids when they change. */
export function fitHeader(moreAlways: boolean, onfold: (folded: string[]) => void): Attachment<HTMLElement> {
  return (header) => {
    let frame = 0;
    let last = "";
    const sizes = new ResizeObserver(() => schedule());
    const changes = new MutationObserver(() => schedule());

    function observeAll(): void {
      sizes.disconnect();
      sizes.observe(header);
      for (const part of header.querySelectorAll("[data-fit-name] > *, [data-action], [data-fit-more]")) {
        sizes.observe(part);
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
