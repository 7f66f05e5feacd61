// Which of a conversation header's actions fit beside its name (issue 29): the name first (up to
// a cap, past which its title ellipsizes), then the actions in priority order; those that do
// not fit are folded into the "⋯" menu. The header's own markup marks each action's box with
// `data-action` (its id) and `data-priority` (lower shows first); `fitHeader` measures them with
// a ResizeObserver, marks the folded ones `data-folded="true"` (CSS takes them out of the row,
// still measurable) and says which ids are folded.

export interface Slot {
  id: string;
  /** Lower is more important: shown first, folded last. */
  priority: number;
  /** Its natural width (max-content), in CSS pixels; 0 for an action that shows nothing. */
  width: number;
}

export interface Room {
  /** The width the actions' row may take, the "⋯" button not counted. */
  available: number;
  /** The space between two actions. */
  gap: number;
  /** The "⋯" button's width. */
  more: number;
  /** The "⋯" button shows whatever fits (a direct conversation's menu has items of its own). */
  moreAlways: boolean;
}

/** The ids folded into "⋯": past the first action (by priority) that does not fit, all of them,
 *  so that an action never shows while a more important one is folded. Actions keep their
 *  order on screen; only which of them show depends on the priority. */
export function foldActions(slots: Slot[], room: Room): string[] {
  const shown = slots.filter((slot) => slot.width > 0);
  const total = (list: Slot[]): number =>
    list.reduce((sum, slot) => sum + slot.width, 0) + Math.max(0, list.length - 1) * room.gap;
  const reserve = room.more + room.gap;
  if (total(shown) <= room.available - (room.moreAlways ? reserve : 0)) return [];
  const budget = room.available - reserve;
  const ranked = shown
    .map((slot, index) => ({ slot, index }))
    .sort((a, b) => a.slot.priority - b.slot.priority || a.index - b.index);
  let used = 0;
  let count = 0;
  const folded: string[] = [];
  for (const { slot } of ranked) {
    const next = used + slot.width + (count > 0 ? room.gap : 0);
    if (folded.length === 0 && next <= budget) {
      used = next;
      count += 1;
    } else folded.push(slot.id);
  }
  return folded;
}

/** How wide the name needs to be: each part at its natural width, a part with a `cap` (the
 *  title's text, the @handle) up to it (past it, that part ellipsizes). */
export function nameWidth(parts: { width: number; cap?: number }[], gap: number): number {
  const widths = parts
    .filter((part) => part.width > 0)
    .map((part) => (part.cap === undefined ? part.width : Math.min(part.width, part.cap)));
  return widths.reduce((sum, width) => sum + width, 0) + Math.max(0, widths.length - 1) * gap;
}
