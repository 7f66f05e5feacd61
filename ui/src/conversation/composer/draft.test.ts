// The composer's text: kept per conversation, Up/Down recall of the last message, Edit and
// resend with what the box held before.

import { describe, expect, test } from "vitest";
import type { Message } from "../../../bindings";
import { Draft, lastSent } from "./draft.svelte";

function key(name: string, modifiers: Partial<KeyboardEvent> = {}): KeyboardEvent {
  return { key: name, shiftKey: false, altKey: false, ctrlKey: false, metaKey: false, ...modifiers } as KeyboardEvent;
}

/** The textarea as recall reads it: its value and where the selection ends. */
function box(value: string, selectionEnd = value.length): HTMLTextAreaElement {
  return { value, selectionEnd, setSelectionRange: () => {} } as unknown as HTMLTextAreaElement;
}

function message(role: string, text: string): Message {
  return { role, parts: [{ kind: "text", text }] } as unknown as Message;
}

describe("the composer's draft", () => {
  test("survives leaving the conversation, each conversation its own", () => {
    const first = new Draft("C1");
    first.text = "half a thought";
    first.remember();
    expect(new Draft("C1").text).toBe("half a thought");
    expect(new Draft("C2").text).toBe("");
  });

  test("the last message of the person is the one recalled", () => {
    const messages = [message("user", "first"), message("agent", "answer"), message("user", "second")];
    expect(lastSent(messages)).toBe("second");
    expect(lastSent([message("agent", "only an answer")])).toBe("");
  });

  test("Up in the empty box recalls it, Down on its last line empties the box again", () => {
    const draft = new Draft("C3");
    expect(draft.recall(key("ArrowUp"), box(""), () => "line one\nline two")).toBe(true);
    expect(draft.text).toBe("line one\nline two");
    expect(draft.recall(key("ArrowDown"), box(draft.text, 3), () => "")).toBe(false); // not the last line
    expect(draft.recall(key("ArrowDown"), box(draft.text), () => "")).toBe(true);
    expect(draft.text).toBe("");
  });

  test("Up does nothing with text in the box, with a modifier, or with nothing sent yet", () => {
    const draft = new Draft("C4");
    expect(draft.recall(key("ArrowUp"), box(""), () => "")).toBe(false);
    expect(draft.recall(key("ArrowUp", { shiftKey: true }), box(""), () => "sent")).toBe(false);
    draft.text = "typing";
    expect(draft.recall(key("ArrowUp"), box("typing"), () => "sent")).toBe(false);
    expect(draft.text).toBe("typing");
  });

  test("a recalled message changed is the person's text: Down leaves it", () => {
    const draft = new Draft("C5");
    draft.recall(key("ArrowUp"), box(""), () => "sent");
    draft.text = "sent, and more";
    expect(draft.recall(key("ArrowDown"), box(draft.text), () => "")).toBe(false);
    expect(draft.text).toBe("sent, and more");
  });

  test("Edit and resend takes a copy; Cancel gives back what the box held, even after two edits", () => {
    const draft = new Draft("C6");
    draft.text = "mine";
    draft.edit("the old message");
    draft.edit("another old message");
    expect(draft.text).toBe("another old message");
    expect(draft.beforeEdit).toBe("mine");
    draft.cancelEdit();
    expect(draft.text).toBe("mine");
    expect(draft.beforeEdit).toBeNull();
  });

  test("an edit sent is over", () => {
    const draft = new Draft("C7");
    draft.edit("the old message");
    draft.sent();
    expect(draft.beforeEdit).toBeNull();
  });
});
