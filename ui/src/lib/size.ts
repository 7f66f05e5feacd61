// A size in words: B, KB, MB, GB, TB (powers of 1024, one decimal under 10), in the UI's
// language (French says "o", "Ko", "Mo"…). Settings' checkpoint store and the files an answer's
// checkpoints left out use it. Tested in settings/storeInfo.test.ts.

import { i18n, t } from "./i18n.svelte";

// Each unit's words: one literal msgid each.
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
