// Dropping a file or a link on the window must not navigate it: the browser's default for a drop
// nobody handles is to open what was dropped in place of the app (the window's navigation lock
// refuses that too, app/bridge/navigation.py). Drops are refused everywhere except in zones a
// component marks for them (attachments, #15), and text dragged into a text field, which the
// browser inserts there.

const ZONE = "data-drop-zone";

/** Marks an element as a place where files may be dropped: its own handlers take the drop
 *  (and must call preventDefault). Usable as a Svelte action: `use:dropZone`. */
export function dropZone(element: Element): { destroy(): void } {
  element.setAttribute(ZONE, "");
  return { destroy: () => element.removeAttribute(ZONE) };
}

interface DropTarget {
  closest?(selectors: string): unknown;
  isContentEditable?: boolean;
}

interface DragLike {
  readonly defaultPrevented: boolean;
  readonly target: unknown;
  readonly dataTransfer: { readonly types: readonly string[]; dropEffect: string } | null;
  preventDefault(): void;
}

/** Whether the browser's own handling of this drag may go on. */
export function dropAllowed(event: DragLike): boolean {
  const target = event.target as DropTarget | null;
  if (!target || typeof target.closest !== "function") return false;
  if (target.closest(`[${ZONE}]`)) return true;
  const files = event.dataTransfer?.types.includes("Files") ?? false;
  const textField = target.isContentEditable === true || !!target.closest("input, textarea");
  return textField && !files;
}

/** Refuses a drag over or a drop outside the places that take it. */
export function refuseStrayDrop(event: DragLike): void {
  if (event.defaultPrevented || dropAllowed(event)) return;
  event.preventDefault();
  if (event.dataTransfer) event.dataTransfer.dropEffect = "none";
}

/** Installs the guard on the document; returns what removes it. */
export function guardDrops(root: EventTarget = document): () => void {
  const refuse = (event: Event) => refuseStrayDrop(event as unknown as DragLike);
  root.addEventListener("dragover", refuse);
  root.addEventListener("drop", refuse);
  return () => {
    root.removeEventListener("dragover", refuse);
    root.removeEventListener("drop", refuse);
  };
}

// Installed as the page starts (main.ts imports this module), before anything can be dropped.
if (typeof document !== "undefined") guardDrops(document);
