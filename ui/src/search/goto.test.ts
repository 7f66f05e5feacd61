import { describe, expect, it } from "vitest";
import type { AgentInfo, Channel } from "../../bindings";
import { GOTO_LIMIT, goToTargets } from "./goto";

const agents = [
  { name: "demo", title: "Démo" },
  { name: "claude", title: "Claude Code" },
] as AgentInfo[];

function channel(id: string, fields: Partial<Channel>): Channel {
  return { id, name: "", description: "", direct: "", title: "", ...fields } as Channel;
}

const all = [
  channel("c1", { name: "general", description: "Everything code" }),
  channel("c2", { name: "release" }),
  channel("d1", { direct: "demo", title: "Plan the release" }),
  channel("d2", { direct: "claude" }), // untitled: its agent's entry opens it
];

describe("goToTargets", () => {
  it("finds agents by title or @handle, accents and case ignored", () => {
    expect(goToTargets("demo", all, agents).map((g) => [g.kind, g.id])).toEqual([["agent", "demo"]]);
    expect(goToTargets("@CLAUDE", all, agents).map((g) => g.label)).toEqual(["Claude Code"]);
  });

  it("finds channels by name or description and titled conversations, agents first", () => {
    expect(goToTargets("release", all, agents).map((g) => [g.kind, g.label, g.detail])).toEqual([
      ["channel", "#release", ""],
      ["conversation", "Plan the release", "Démo"],
    ]);
    expect(goToTargets("code", all, agents).map((g) => g.kind)).toEqual(["agent", "channel"]);
    expect(goToTargets("#gen", all, agents).map((g) => g.id)).toEqual(["c1"]);
  });

  it("wants every word, and nothing for an empty query", () => {
    expect(goToTargets("plan release", all, agents).map((g) => g.id)).toEqual(["d1"]);
    expect(goToTargets("plan nowhere", all, agents)).toEqual([]);
    expect(goToTargets("  ", all, agents)).toEqual([]);
  });

  it("keeps the list short", () => {
    const many = Array.from({ length: 10 }, (_, i) => channel(`x${i}`, { name: `team-${i}` }));
    expect(goToTargets("team", many, agents)).toHaveLength(GOTO_LIMIT);
  });
});
