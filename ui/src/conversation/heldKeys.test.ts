// Held keys and the guard that keeps a key press begun elsewhere from activating a control.

import { describe, expect, test } from "vitest";
import { HeldKeys, pressBeganEarlier } from "./heldKeys";

describe("a key press that began before the focus is ignored", () => {
  test("a key held when the control got the focus is ignored until released", () => {
    const keys = new HeldKeys();
    keys.down({ code: "Enter" });
    const atFocus = keys.snapshot();
    expect(pressBeganEarlier({ code: "Enter", repeat: false }, atFocus)).toBe(true);
    keys.up({ code: "Enter" });
    atFocus.delete("Enter"); // what the control does on keyup
    expect(pressBeganEarlier({ code: "Enter", repeat: false }, atFocus)).toBe(false);
  });

  test("an auto-repeated press is always ignored", () => {
    expect(pressBeganEarlier({ code: "Enter", repeat: true }, new Set())).toBe(true);
  });

  test("a fresh press after the focus counts", () => {
    const keys = new HeldKeys();
    const atFocus = keys.snapshot();
    keys.down({ code: "Enter" });
    expect(atFocus.has("Enter")).toBe(false);
    expect(pressBeganEarlier({ code: "Enter", repeat: false }, atFocus)).toBe(false);
  });

  test("leaving the window forgets the held keys", () => {
    const keys = new HeldKeys();
    keys.down({ code: "Space" });
    keys.clear();
    expect(keys.snapshot().size).toBe(0);
  });
});
