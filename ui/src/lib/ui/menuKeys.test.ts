import { describe, expect, test } from "vitest";
import { menuKey, openingIndex, openingKey } from "./menuKeys";

describe("an open menu's keys", () => {
  test("↓ and ↑ move from item to item and wrap around", () => {
    expect(menuKey("ArrowDown", 0, 3)).toEqual({ kind: "focus", index: 1 });
    expect(menuKey("ArrowDown", 2, 3)).toEqual({ kind: "focus", index: 0 });
    expect(menuKey("ArrowUp", 1, 3)).toEqual({ kind: "focus", index: 0 });
    expect(menuKey("ArrowUp", 0, 3)).toEqual({ kind: "focus", index: 2 });
  });

  test("from the trigger, ↓ goes to the first item and ↑ to the last", () => {
    expect(menuKey("ArrowDown", -1, 3)).toEqual({ kind: "focus", index: 0 });
    expect(menuKey("ArrowUp", -1, 3)).toEqual({ kind: "focus", index: 2 });
  });

  test("Home and End go to the ends", () => {
    expect(menuKey("Home", 2, 4)).toEqual({ kind: "focus", index: 0 });
    expect(menuKey("End", 0, 4)).toEqual({ kind: "focus", index: 3 });
  });

  test("Escape closes and gives the focus back to the trigger; Tab closes and lets it move on", () => {
    expect(menuKey("Escape", 1, 3)).toEqual({ kind: "close", refocus: true });
    expect(menuKey("Tab", 1, 3)).toEqual({ kind: "close", refocus: false });
    expect(menuKey("Escape", -1, 0)).toEqual({ kind: "close", refocus: true });
  });

  test("an empty menu has nowhere to move; other keys are left to the page and the items", () => {
    expect(menuKey("ArrowDown", -1, 0)).toBeNull();
    expect(menuKey("End", -1, 0)).toBeNull();
    for (const key of ["Enter", " ", "a", "ArrowLeft", "PageDown"]) expect(menuKey(key, 0, 3)).toBeNull();
  });
});

describe("opening a menu", () => {
  test("↓ and ↑ on the trigger open it; other keys do not", () => {
    expect(openingKey("ArrowDown")).toBe("ArrowDown");
    expect(openingKey("ArrowUp")).toBe("ArrowUp");
    expect(openingKey("Enter")).toBeNull();
    expect(openingKey("Escape")).toBeNull();
  });

  test("a click or ↓ focuses the current choice, else the first item; ↑ the last", () => {
    expect(openingIndex("click", 2, 4)).toBe(2);
    expect(openingIndex("ArrowDown", 2, 4)).toBe(2);
    expect(openingIndex("click", -1, 4)).toBe(0);
    expect(openingIndex("click", 9, 4)).toBe(0);
    expect(openingIndex("ArrowUp", 1, 4)).toBe(3);
    expect(openingIndex("click", 0, 0)).toBe(-1);
  });
});
