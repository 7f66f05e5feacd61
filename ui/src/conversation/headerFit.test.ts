import { describe, expect, it } from "vitest";
import { foldActions, nameWidth, type Slot } from "./headerFit";

const slots: Slot[] = [
  { id: "mode", priority: 20, width: 60 },
  { id: "export", priority: 60, width: 80 },
  { id: "details", priority: 50, width: 120 },
];
const room = { gap: 10, more: 30, moreAlways: false };

describe("foldActions", () => {
  it("folds nothing when every action fits", () => {
    expect(foldActions(slots, { ...room, available: 280 })).toEqual([]);
  });

  it("keeps room for an always shown menu", () => {
    expect(foldActions(slots, { ...room, available: 280, moreAlways: true })).toEqual(["export"]);
  });

  it("folds by priority, not by order on screen, and reserves the menu's room", () => {
    // 60 + 10 + 120 = 190 fits in 240 - 40; export (80) would not.
    expect(foldActions(slots, { ...room, available: 240 })).toEqual(["export"]);
    expect(foldActions(slots, { ...room, available: 150 })).toEqual(["details", "export"]);
  });

  it("never shows an action while a more important one is folded", () => {
    const wide: Slot[] = [
      { id: "model", priority: 20, width: 300 },
      { id: "worktree", priority: 70, width: 40 },
    ];
    expect(foldActions(wide, { ...room, available: 200 })).toEqual(["model", "worktree"]);
  });

  it("ignores actions that show nothing", () => {
    const some: Slot[] = [...slots, { id: "usage", priority: 1, width: 0 }];
    expect(foldActions(some, { ...room, available: 280 })).toEqual([]);
  });
});

describe("nameWidth", () => {
  it("caps only the parts that ellipsize, each at its own cap", () => {
    const parts = [{ width: 400, cap: 180 }, { width: 40 }, { width: 60 }];
    expect(nameWidth(parts, 8)).toBe(180 + 40 + 60 + 16);
    expect(nameWidth([{ width: 30, cap: 180 }], 8)).toBe(30);
    // A long @handle gives way too: the title's cap, the handle's minimum, the badge whole.
    expect(nameWidth([{ width: 300, cap: 180 }, { width: 280, cap: 48 }, { width: 50 }], 8)).toBe(180 + 48 + 50 + 16);
  });
});
