// Where the focus goes back and when Escape stops an answer, on stand-ins for the document.

import { describe, expect, test } from "vitest";
import { escapeStopsAnswer, focusIsAdrift, type PageState } from "./focusReturn";

/** An element inside the places named (what closest() finds). */
function element(inside: string[] = []) {
  return {
    closest: (selectors: string) => (inside.some((s) => selectors.includes(s)) ? {} : null),
  } as unknown as Element;
}

function page(open: string[] = [], active: Element | null = null): PageState {
  const body = {} as Element;
  return {
    activeElement: active ?? body,
    body,
    querySelector: (selectors: string) => (open.some((o) => selectors.includes(o)) ? ({} as Element) : null),
  };
}

function escape(target: Element, extra: { defaultPrevented?: boolean; repeat?: boolean } = {}) {
  return { key: "Escape", defaultPrevented: false, repeat: false, target, ...extra };
}

describe("the focus goes back to the composer only when it is adrift", () => {
  test("on the body it is adrift", () => {
    expect(focusIsAdrift(page())).toBe(true);
  });

  test("inside the prompt that goes away it is adrift", () => {
    const button = element();
    const prompt = { contains: (e: unknown) => e === button } as unknown as Element;
    expect(focusIsAdrift(page([], button), prompt)).toBe(true);
  });

  test("somewhere the person moved it, it stays", () => {
    const elsewhere = element();
    const prompt = { contains: () => false } as unknown as Element;
    expect(focusIsAdrift(page([], elsewhere), prompt)).toBe(false);
  });
});

describe("Escape stops an answer only when nothing else takes it", () => {
  test("with nothing open, Escape stops", () => {
    expect(escapeStopsAnswer(escape(element()), page())).toBe(true);
  });

  test("an open dialog, menu or completion list takes Escape", () => {
    for (const open of ["dialog[open]", "[role=menu]", "[role=listbox]", "[role=dialog]"]) {
      expect(escapeStopsAnswer(escape(element()), page([open]))).toBe(false);
    }
  });

  test("an Escape already used (the completion closed) does not stop", () => {
    expect(escapeStopsAnswer(escape(element(), { defaultPrevented: true }), page())).toBe(false);
  });

  test("in the settings editor Escape is the editor's", () => {
    expect(escapeStopsAnswer(escape(element([".cm-editor"])), page())).toBe(false);
  });

  test("in a field with a draft Escape does not stop; in the empty composer it does", () => {
    const draft = Object.assign(element(), { value: "half a thought" });
    expect(escapeStopsAnswer(escape(draft), page())).toBe(false);
    const empty = Object.assign(element(), { value: "" });
    expect(escapeStopsAnswer(escape(empty), page())).toBe(true);
  });

  test("a held Escape's repeats do not stop again", () => {
    expect(escapeStopsAnswer(escape(element(), { repeat: true }), page())).toBe(false);
  });

  test("other keys never stop", () => {
    expect(escapeStopsAnswer({ ...escape(element()), key: "Enter" }, page())).toBe(false);
  });
});
