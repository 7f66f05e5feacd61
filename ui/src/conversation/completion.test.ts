// Enter on a complete word sends, on a prefix accepts: which typed words count as complete.

import { describe, expect, test } from "vitest";
import type { AgentInfo, Command } from "../../bindings";
import { alreadyComplete, complete, type CompletionContext } from "./completion";

const hello: Command = { name: "hello", description: "Say hello", hint: "who" } as Command;
const helpful: Command = { name: "helpful", description: "Help", hint: "" } as Command;

function context(direct: string | null): CompletionContext {
  const alpha = { name: "alpha", title: "Alpha", description: "" } as AgentInfo;
  const alps = { name: "alps", title: "Alps", description: "" } as AgentInfo;
  return {
    configured: ["alpha", "alps"],
    members: ["alpha", "alps"],
    direct: direct ?? "",
    lastResponder: "",
    agents: [alpha, alps],
    commandsOf: (agent) => (agent === "alpha" ? [hello, helpful] : []),
  } as CompletionContext;
}

function firstIsComplete(text: string, direct: string | null = null): boolean {
  const found = complete(text, text.length, context(direct));
  const item = found?.items[0];
  if (!found || !item) throw new Error(`no completion for ${text}`);
  return alreadyComplete(text, found, item);
}

describe("a word typed in full is complete, a prefix is not", () => {
  test("a full /command in a direct conversation is complete", () => {
    expect(firstIsComplete("/hello", "alpha")).toBe(true);
  });

  test("a prefix of a /command is not", () => {
    expect(firstIsComplete("/hel", "alpha")).toBe(false);
  });

  test("a full /agent:command is complete", () => {
    expect(firstIsComplete("/alpha:hello")).toBe(true);
  });

  test("a full @agent is complete, its prefix is not", () => {
    expect(firstIsComplete("@alpha")).toBe(true);
    expect(firstIsComplete("@alp")).toBe(false);
  });

  test("another item chosen with the arrows is not the typed word", () => {
    const found = complete("/hel", 4, context("alpha"));
    const second = found?.items[1];
    expect(second?.label).toBe("/helpful");
    expect(found && second && alreadyComplete("/hel", found, second)).toBe(false);
  });
});
