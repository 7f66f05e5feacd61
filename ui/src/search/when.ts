// A search hit's day when it is not today ("3 Feb", or "3 Feb 2025" another year), in the UI's
// language; "" today (the time says it: conversation/format.ts timeOf).

import { i18n } from "../lib/i18n.svelte";
import { whenOf } from "./results";

const formats = new Map<string, Intl.DateTimeFormat>();

function format(kind: "day" | "year"): Intl.DateTimeFormat {
  const key = `${i18n.language}:${kind}`;
  let found = formats.get(key);
  if (!found) {
    const options: Intl.DateTimeFormatOptions = { day: "numeric", month: "short" };
    if (kind === "year") options.year = "numeric";
    found = new Intl.DateTimeFormat(i18n.language, options);
    formats.set(key, found);
  }
  return found;
}

export function shortDay(iso: string, now: Date = new Date()): string {
  const when = whenOf(iso, now);
  if (!when || when.kind === "time") return "";
  return format(when.kind).format(when.date);
}
