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

describe("the @ menu lists the channel's members first, then the other agents, then @here and @all", () => {
  const agent = (name: string): AgentInfo => ({ name, title: name, description: "" }) as AgentInfo;
  const ctx = (members: string[]): CompletionContext => ({
    configured: ["demo", "bob", "alice", "carol"],
    members,
    direct: "",
    lastResponder: "",
    agents: ["demo", "bob", "alice", "carol"].map(agent),
    commandsOf: () => [],
  });
  const labels = (text: string, members: string[]): string[] =>
    complete(text, text.length, ctx(members))?.items.map((i) => i.label) ?? [];

  test("members in the channel's order, then the others in configuration order, then everyone", () => {
    expect(labels("@", ["carol", "bob"])).toEqual(["@carol", "@bob", "@demo", "@alice", "@here", "@all"]);
  });

  test("the typed prefix filters every group", () => {
    expect(labels("@a", ["carol", "alice"])).toEqual(["@alice", "@all"]);
    expect(labels("@he", ["carol"])).toEqual(["@here"]);
  });

  test("a channel without members offers no @here or @all", () => {
    expect(labels("@", [])).toEqual(["@demo", "@bob", "@alice", "@carol"]);
  });

  test("members do not join, the others do, and everyone is not an agent", () => {
    const items = complete("@", 1, ctx(["bob"]))?.items ?? [];
    expect(items.map((i) => [i.label, i.joins ?? false, i.everyone ?? false])).toEqual([
      ["@bob", false, false],
      ["@demo", true, false],
      ["@alice", true, false],
      ["@carol", true, false],
      ["@here", false, true],
      ["@all", false, true],
    ]);
  });

  test("a direct conversation offers no mention at all", () => {
    expect(complete("@", 1, { ...ctx(["bob"]), direct: "bob" })).toBeNull();
  });
});
