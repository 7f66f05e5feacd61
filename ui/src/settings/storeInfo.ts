// The checkpoint store's figures in words (Settings' Checkpoints section): a size in B, KB, MB,
// GB (powers of 1024, one decimal under 10), the oldest snapshot's date, and the days field read
// back as a whole number of days (0 = all). Tested in storeInfo.test.ts.

import { i18n, t } from "../lib/i18n.svelte";

// Each unit's words (French says "o", "Ko", "Mo"…): one literal msgid each.
const UNITS = [
  (size: string) => t("{size} B", { size }),
  (size: string) => t("{size} KB", { size }),
  (size: string) => t("{size} MB", { size }),
  (size: string) => t("{size} GB", { size }),
  (size: string) => t("{size} TB", { size }),
] as const;

/** "0 B", "512 B", "1.5 KB", "12 MB", "3.2 GB", in the UI's language's number format. */
export function humanSize(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: digits }).format(value);
  return UNITS[unit]!(number);
}

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
