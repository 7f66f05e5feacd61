// The drop guard's decisions, on stand-ins for drag events (the real window is tested in
// tests/e2e/test_bridge_security.py).

import { describe, expect, test } from "vitest";
import { dropAllowed, guardDrops, refuseStrayDrop } from "./dropGuard";

function element(matches: string[], editable = false) {
  return {
    isContentEditable: editable,
    closest: (selectors: string) => (matches.some((m) => selectors.includes(m)) ? {} : null),
  };
}

function drag(target: unknown, types: string[], prevented = false) {
  return {
    defaultPrevented: prevented,
    target,
    dataTransfer: { types, dropEffect: "copy" },
    refused: false,
    preventDefault() {
      this.refused = true;
    },
  };
}

describe("a drop outside the places that take it is refused", () => {
  test("a file dropped on the page is refused and shows no drop cursor", () => {
    const event = drag(element([]), ["Files"]);
    refuseStrayDrop(event);
    expect(event.refused).toBe(true);
    expect(event.dataTransfer.dropEffect).toBe("none");
  });

  test("a link dropped on the page is refused", () => {
    const event = drag(element([]), ["text/uri-list", "text/plain"]);
    refuseStrayDrop(event);
    expect(event.refused).toBe(true);
  });

  test("a drop in a marked zone is left to the zone", () => {
    expect(dropAllowed(drag(element(["data-drop-zone"]), ["Files"]))).toBe(true);
  });

  test("text dragged into a text field is inserted there", () => {
    expect(dropAllowed(drag(element(["textarea"]), ["text/plain"]))).toBe(true);
    expect(dropAllowed(drag(element([], true), ["text/plain"]))).toBe(true);
  });

  test("a file dropped on a text field is refused", () => {
    expect(dropAllowed(drag(element(["textarea"]), ["Files"]))).toBe(false);
  });

  test("a drop a component already handled is left alone", () => {
    const event = drag(element([]), ["Files"], true);
    refuseStrayDrop(event);
    expect(event.refused).toBe(false);
  });

  test("the guard listens to drag overs and drops until removed", () => {
    const root = new EventTarget();
    const remove = guardDrops(root);
    const over = new Event("dragover", { cancelable: true });
    root.dispatchEvent(over);
    expect(over.defaultPrevented).toBe(true);
    remove();
    const later = new Event("drop", { cancelable: true });
    root.dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
  });
});
