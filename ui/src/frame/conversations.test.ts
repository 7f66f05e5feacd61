import { describe, expect, it } from "vitest";
import type { Channel } from "../../bindings";
import { groupConversations, SHOWN, shownConversations } from "./conversations";

function conv(id: string, direct: string, lastActivity: string, createdAt = lastActivity): Channel {
  return {
    id,
    name: "",
    description: "",
    direct,
    members: direct ? [direct] : [],
    title: "",
    createdAt,
    lastActivity,
  } as Channel;
}

const T = (minute: number): string => `2026-12-02T08:${String(minute).padStart(2, "0")}:00.000Z`;

describe("groupConversations", () => {
  it("groups direct conversations under their agent, newest made first, in the configuration's order", () => {
    const all = [
      conv("01", "demo", T(1)),
      conv("02", "", T(2)), // a channel: not listed here
      conv("03", "bob", T(3)),
      conv("04", "demo", T(9)),
      conv("05", "demo", T(5)),
      conv("06", "gone", T(4)),
    ];
    const groups = groupConversations(all, ["demo", "bob"]);
    expect(groups.map((g) => g.agent)).toEqual(["demo", "bob", "gone"]);
    expect(groups[0]!.conversations.map((c) => c.id)).toEqual(["04", "05", "01"]);
  });

  it("orders by creation, not by the last message (issue 29: a conversation written to stays put)", () => {
    const all = [conv("A1", "demo", T(50), T(1)), conv("A2", "demo", T(3), T(3)), conv("A3", "demo", T(3), T(3))];
    expect(groupConversations(all, ["demo"])[0]!.conversations.map((c) => c.id)).toEqual(["A3", "A2", "A1"]);
  });

  it("has a group for every configured agent, talked to or not, in the configuration's order", () => {
    const groups = groupConversations([conv("1", "", T(1)), conv("2", "bob", T(2))], ["demo", "bob"]);
    expect(groups).toEqual([
      { agent: "demo", conversations: [] },
      { agent: "bob", conversations: [expect.objectContaining({ id: "2" })] },
    ]);
  });
});

describe("shownConversations", () => {
  const many = Array.from({ length: 6 }, (_, i) => conv(`C${i}`, "demo", T(30 - i)));

  it("shows the newest few and counts the rest for 'more'", () => {
    const { shown, hidden } = shownConversations(many, false);
    expect(shown.map((c) => c.id)).toEqual(["C0", "C1", "C2"]);
    expect(shown).toHaveLength(SHOWN);
    expect(hidden).toBe(3);
  });

  it("shows all once expanded, and all when they are few", () => {
    expect(shownConversations(many, true)).toEqual({ shown: many, hidden: 0 });
    expect(shownConversations(many.slice(0, 2), false).hidden).toBe(0);
  });

  it("keeps older conversations with something waiting in view, in their place", () => {
    const { shown, hidden } = shownConversations(many, false, "C5", (id) => id === "C3");
    expect(shown.map((c) => c.id)).toEqual(["C0", "C1", "C2", "C3", "C5"]);
    expect(hidden).toBe(1);
  });

  it("keeps the conversation on screen in view even when it is older", () => {
    const { shown, hidden } = shownConversations(many, false, "C5");
    expect(shown.map((c) => c.id)).toEqual(["C0", "C1", "C2", "C5"]);
    expect(hidden).toBe(2);
  });
});
