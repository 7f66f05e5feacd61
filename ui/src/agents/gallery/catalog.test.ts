import { describe, expect, it } from "vitest";
import type { CatalogEntry, InstallProgress } from "../../../bindings";
import {
  dayOf,
  filterCatalog,
  formatBytes,
  inProgress,
  offerOf,
  progressPercent,
  suggestedName,
  welcomeEntries,
} from "./catalog";

function entry(id: string, more: Partial<CatalogEntry> = {}): CatalogEntry {
  return {
    id,
    name: id,
    version: "1.0.0",
    description: "",
    icon: "",
    kind: "npx",
    installed: "",
    detected: "",
    needs: [],
    added: [],
    update: false,
    repository: "",
    license: "",
    ...more,
  };
}

function progress(phase: InstallProgress["phase"], done = 0, total = 0): InstallProgress {
  return { id: "x", agent: "", phase, done, total, error: "" };
}

describe("the gallery's search", () => {
  const entries = [
    entry("claude-acp", { name: "Claude Code", description: "Anthropic's agent" }),
    entry("codex-acp", { name: "Codex CLI", description: "OpenAI's agent" }),
    entry("fast", { name: "Rapidé", kind: "binary" }),
  ];

  it("shows everything for an empty query, in the catalog's order", () => {
    expect(filterCatalog(entries, "  ").map((e) => e.id)).toEqual(["claude-acp", "codex-acp", "fast"]);
  });

  it("needs every word, in any field, ignoring case and accents", () => {
    expect(filterCatalog(entries, "ANTHROPIC").map((e) => e.id)).toEqual(["claude-acp"]);
    expect(filterCatalog(entries, "code").map((e) => e.id)).toEqual(["claude-acp", "codex-acp"]);
    expect(filterCatalog(entries, "agent openai").map((e) => e.id)).toEqual(["codex-acp"]);
    expect(filterCatalog(entries, "rapide binary").map((e) => e.id)).toEqual(["fast"]);
    expect(filterCatalog(entries, "nothing")).toEqual([]);
  });
});

describe("what an entry offers", () => {
  it("adds a package or a program at once", () => {
    expect(offerOf(entry("a"))).toEqual({ install: null, canAdd: true });
    expect(offerOf(entry("path:a", { kind: "path" }))).toEqual({ install: null, canAdd: true });
  });

  it("installs a binary first, then offers Update when the registry is newer", () => {
    expect(offerOf(entry("b", { kind: "binary" }))).toEqual({ install: "install", canAdd: false });
    expect(offerOf(entry("b", { kind: "binary", installed: "1.0.0" }))).toEqual({ install: null, canAdd: true });
    expect(offerOf(entry("b", { kind: "binary", installed: "0.9.0", update: true }))).toEqual({
      install: "update",
      canAdd: true,
    });
  });
});

describe("an install's progress", () => {
  it("fills the bar by bytes, indeterminate when the total is unknown", () => {
    expect(progressPercent(progress("download", 50, 200))).toBe(25);
    expect(progressPercent(progress("download", 300, 200))).toBe(100);
    expect(progressPercent(progress("download", 10, 0))).toBeNull();
  });

  it("is under way until done, failed or cancelled", () => {
    expect(inProgress(undefined)).toBe(false);
    for (const phase of ["download", "verify", "unpack"] as const) expect(inProgress(progress(phase))).toBe(true);
    for (const phase of ["done", "failed", "cancelled"] as const) expect(inProgress(progress(phase))).toBe(false);
  });

  it("says sizes in bytes a person reads", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1500)).toBe("1.5 kB");
    expect(formatBytes(12_345_678)).toBe("12 MB");
  });
});

describe("the name an added agent gets", () => {
  it("comes from the id, without -acp, and is a valid configuration name", () => {
    expect(suggestedName(entry("claude-acp"), [])).toBe("claude");
    expect(suggestedName(entry("path:My Agent.exe"), [])).toBe("my-agent-exe");
    expect(suggestedName(entry("", { name: "Ünïcode" }), [])).toBe("unicode");
    expect(suggestedName(entry("@@@"), [])).toBe("agent");
    expect(suggestedName(entry("x".repeat(60)), [])).toHaveLength(37);
  });

  it("is unique ignoring case", () => {
    expect(suggestedName(entry("claude-acp"), ["Claude"])).toBe("claude-2");
    expect(suggestedName(entry("claude-acp"), ["claude", "claude-2"])).toBe("claude-3");
  });
});

describe("the welcome screen's entries", () => {
  it("puts detected programs first, leaves out configured ones, and stops at the limit", () => {
    const entries = [
      entry("claude-acp"),
      entry("codex-acp", { added: ["codex"] }),
      entry("gemini"),
      entry("path:goose", { kind: "path", detected: "goose 1.0" }),
      entry("opencode"),
      entry("more"),
    ];
    expect(welcomeEntries(entries, 3).map((e) => e.id)).toEqual(["path:goose", "claude-acp", "gemini"]);
  });

  it("offers what can run here before what still needs something (a binary installs itself)", () => {
    const npxMissing = ["npx (Node.js) is not on PATH"];
    const entries = [
      entry("claude-acp", { needs: npxMissing }),
      entry("codex-acp", { needs: npxMissing }),
      entry("fast", { kind: "binary", needs: ["it needs to be installed"] }),
      entry("uv-one", { kind: "uvx" }),
    ];
    expect(welcomeEntries(entries, 3).map((e) => e.id)).toEqual(["fast", "uv-one", "claude-acp"]);
  });
});

describe("the registry's date", () => {
  it("is the day of an ISO date-time", () => {
    expect(dayOf("2026-12-02T06:50:00Z")).toBe("2026-12-02");
    expect(dayOf("")).toBe("");
  });
});
