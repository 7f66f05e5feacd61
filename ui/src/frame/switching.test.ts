import { describe, expect, it } from "vitest";
import { nextConversation, switchStep } from "./switching";

function key(key: string, mods: Partial<KeyboardEvent> = {}): KeyboardEvent {
  return { key, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, ...mods } as KeyboardEvent;
}

describe("nextConversation", () => {
  const order = ["a", "b", "c"];
  it("moves one way or the other, round at the ends", () => {
    expect(nextConversation(order, "b", 1)).toBe("c");
    expect(nextConversation(order, "c", 1)).toBe("a");
    expect(nextConversation(order, "a", -1)).toBe("c");
  });
  it("starts at the first (down) or the last (up) from outside a conversation", () => {
    expect(nextConversation(order, "", 1)).toBe("a");
    expect(nextConversation(order, "", -1)).toBe("c");
    expect(nextConversation([], "", 1)).toBeUndefined();
  });
});

describe("switchStep", () => {
  it("knows Alt+Up/Down and Ctrl+(Shift+)Tab, nothing else", () => {
    expect(switchStep(key("ArrowDown", { altKey: true }))).toBe(1);
    expect(switchStep(key("ArrowUp", { altKey: true }))).toBe(-1);
    expect(switchStep(key("Tab", { ctrlKey: true }))).toBe(1);
    expect(switchStep(key("Tab", { ctrlKey: true, shiftKey: true }))).toBe(-1);
    expect(switchStep(key("ArrowDown"))).toBe(0);
    expect(switchStep(key("Tab"))).toBe(0);
    expect(switchStep(key("ArrowDown", { altKey: true, shiftKey: true }))).toBe(0);
  });
});
