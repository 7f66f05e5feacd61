// Where the keyboard goes when the control that had it goes away (a permission prompt answered,
// Stop once the answer ended): back to the conversation's composer, never to the page's body.
// Also when Escape stops an answer: only when nothing else on the page takes Escape, and not
// from a field with text in it.

/** What these decisions need of the document (a stand-in in the unit tests). */
export interface PageState {
  activeElement: Element | null;
  body: Element | null;
  querySelector(selectors: string): Element | null;
}

/** Open things that Escape closes first: dialogs (modal or not), menus, popovers, completions. */
const TAKES_ESCAPE = "dialog[open], [role=dialog], [role=alertdialog], [role=menu], [role=listbox]";
/** Where Escape belongs to the focused control (the settings editor: Escape then Tab leaves it). */
const OWNS_ESCAPE = ".cm-editor, [data-testid=settings-panel]";

/** True when the focus is lost (on the body) or still inside `within`, which is going away. */
export function focusIsAdrift(page: PageState, within?: Element | null): boolean {
  const active = page.activeElement;
  return !active || active === page.body || (within?.contains(active) ?? false);
}

/** Focuses the composer when the focus is adrift (see focusIsAdrift). */
export function returnFocusToComposer(page: Document = document, within?: Element | null): void {
  if (!focusIsAdrift(page, within)) return;
  page.querySelector<HTMLTextAreaElement>("textarea[data-composer]")?.focus();
}

/** True when an Escape keydown should stop the answer in progress. */
export function escapeStopsAnswer(
  event: Pick<KeyboardEvent, "key" | "defaultPrevented" | "repeat" | "target">,
  page: PageState,
): boolean {
  if (event.key !== "Escape" || event.defaultPrevented || event.repeat) return false;
  if (page.querySelector(TAKES_ESCAPE)) return false;
  const target = event.target as (Element & { value?: unknown }) | null;
  // A draft being typed (in the composer or any field): Escape there is not meant for the
  // answer, and stopping one loses work — only an empty field's Escape stops.
  if (typeof target?.value === "string" && target.value !== "") return false;
  return !(typeof target?.closest === "function" && target.closest(OWNS_ESCAPE));
}
