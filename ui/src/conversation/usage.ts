// What the context meter's tooltip says besides the context (issue 26): the session's cost
// (ACP usage_update.cost) and the account's rate-limit windows (claude's `_claude/rateLimit`).

import type { Cost, RateLimit } from "../../bindings";
import { t } from "../lib/i18n.svelte";

/** "$0.42" in the UI's language; the code itself when the currency is not one Intl knows. */
export function costText(cost: Cost, language: string): string {
  try {
    return new Intl.NumberFormat(language, {
      style: "currency",
      currency: cost.currency,
      maximumFractionDigits: cost.amount < 1 ? 4 : 2,
    }).format(cost.amount);
  } catch {
    return `${cost.amount} ${cost.currency}`;
  }
}

function windowName(window: string): string {
  switch (window) {
    case "five_hour":
      return t("5-hour limit");
    case "seven_day":
      return t("Weekly limit");
    case "seven_day_opus":
      return t("Weekly limit (Opus)");
    case "seven_day_sonnet":
      return t("Weekly limit (Sonnet)");
    default:
      return window;
  }
}

/** One line per window: how much is used and when it resets. */
export function limitLines(limits: readonly RateLimit[], language: string): string[] {
  const time = new Intl.DateTimeFormat(language, { weekday: "short", hour: "numeric", minute: "2-digit" });
  return limits.map((limit) => {
    const name = windowName(limit.window);
    const resets = limit.resetsAt != null ? time.format(new Date(limit.resetsAt * 1000)) : "";
    if (limit.status === "rejected") {
      return resets ? t("{limit}: reached, resets {time}", { limit: name, time: resets }) : t("{limit}: reached", { limit: name });
    }
    const percent = limit.utilization != null ? Math.round(limit.utilization * 100) : null;
    if (percent == null) return resets ? t("{limit}: resets {time}", { limit: name, time: resets }) : name;
    return resets
      ? t("{limit}: {percent}% used, resets {time}", { limit: name, percent, time: resets })
      : t("{limit}: {percent}% used", { limit: name, percent });
  });
}

/** A window close to its end (a warning, or 80 % used) or reached. */
export function limitNear(limits: readonly RateLimit[]): boolean {
  return limits.some((l) => l.status !== "allowed" || (l.utilization ?? 0) >= 0.8);
}
