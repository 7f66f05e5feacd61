// The checkpoint store's figures in words (Settings' Checkpoints section): a size in B, KB, MB,
// GB (powers of 1024, one decimal under 10), the oldest snapshot's date, and the days field read
// back as a whole number of days (0 = all). Tested in storeInfo.test.ts.

import { i18n, t } from "../lib/i18n.svelte";

export { humanSize } from "../lib/size";

/** The oldest snapshot's date and time, or "none" when the store holds none. */
export function oldestText(iso: string): string {
  const date = iso ? new Date(iso) : null;
  if (!date || Number.isNaN(date.getTime())) return t("none");
  return new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

/** The days typed in the field as a whole number ≥ 0, or null when it is not one. */
export function daysOf(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,5}$/.test(trimmed)) return null;
  return Number(trimmed);
}
