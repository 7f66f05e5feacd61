// Pure helpers of the agent gallery (issue 27): which entries a search shows, what each entry
// offers (Install, Update, Add), an install's progress as a bar, the name an added agent is
// given, and the welcome screen's short list.

import type { CatalogEntry, InstallProgress } from "../../../bindings";

/** app/config/model.py's AGENT_NAME_PATTERN and AGENT_NAME_MAX. */
const NAME_MAX = 40;

/** Lower case without accents, for a search that finds "Codex" from "codex" or "é" from "e". */
function folded(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The entries whose name, id, description or kind hold every word of `query`, in order. */
export function filterCatalog(entries: readonly CatalogEntry[], query: string): CatalogEntry[] {
  const words = folded(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...entries];
  return entries.filter((entry) => {
    const haystack = folded([entry.name, entry.id, entry.description, entry.kind].join(" "));
    return words.every((word) => haystack.includes(word));
  });
}

export interface EntryOffer {
  /** "install" for a binary not unpacked yet, "update" when the registry has a newer one. */
  install: "install" | "update" | null;
  /** Add is offered once the entry can run from the data folder (binary) or at once (others). */
  canAdd: boolean;
}

/** What an entry's buttons offer. */
export function offerOf(entry: CatalogEntry): EntryOffer {
  if (entry.kind !== "binary") return { install: null, canAdd: true };
  if (!entry.installed) return { install: "install", canAdd: false };
  return { install: entry.update ? "update" : null, canAdd: true };
}

/** A bar's fill in percent, or null when the total is unknown (an indeterminate bar). */
export function progressPercent(progress: Pick<InstallProgress, "done" | "total">): number | null {
  if (progress.total <= 0) return null;
  return Math.max(0, Math.min(100, Math.round((progress.done / progress.total) * 100)));
}

/** Whether an install is under way (its bar is shown and Cancel offered). */
export function inProgress(progress: InstallProgress | undefined): boolean {
  return progress !== undefined && ["download", "verify", "unpack"].includes(progress.phase);
}

/** "1.5 MB" for a byte count (decimal units, one decimal under ten). */
export function formatBytes(bytes: number): string {
  const units = ["B", "kB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const shown = unit === 0 || value >= 10 ? Math.round(value).toString() : value.toFixed(1);
  return `${shown} ${units[unit]}`;
}

/** A name for the agent made from `entry` that no configured agent has (ignoring case):
 *  "claude-acp" → "claude", then "claude-2"…; a valid `name:` of the configuration. */
export function suggestedName(entry: Pick<CatalogEntry, "id" | "name">, taken: readonly string[]): string {
  const source = entry.id.replace(/^path:/, "") || entry.name;
  let base = folded(source)
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/(^[-_]+)|([-_]+$)/g, "")
    .replace(/[-_]acp$/, "");
  if (!base) base = "agent";
  base = base.slice(0, NAME_MAX - 3);
  const used = new Set(taken.map((name) => name.toLowerCase()));
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** Whether `entry` can run once added (a binary is installed by the same click). */
export function ready(entry: CatalogEntry): boolean {
  return entry.kind === "binary" ? !entry.installed || entry.needs.length === 0 : entry.needs.length === 0;
}

/** The welcome screen's one-click entries: programs found on this computer first, then the
 *  gallery's (well-known first) that can run here, then the rest; none already configured; at
 *  most `limit`, in the catalog's order within each group. */
export function welcomeEntries(entries: readonly CatalogEntry[], limit = 4): CatalogEntry[] {
  const fresh = entries.filter((entry) => entry.added.length === 0);
  const rank = (entry: CatalogEntry): number => (entry.detected ? 0 : ready(entry) ? 1 : 2);
  return fresh
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => rank(a.entry) - rank(b.entry) || a.index - b.index)
    .slice(0, limit)
    .map(({ entry }) => entry);
}

/** "2026-12-02" of an ISO date-time, "" when there is none. */
export function dayOf(iso: string): string {
  const match = /^\d{4}-\d{2}-\d{2}/.exec(iso);
  return match ? match[0] : "";
}
