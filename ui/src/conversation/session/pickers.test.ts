import { describe, expect, it } from "vitest";
import type { MemberSession, SessionOptionInfo } from "../../../bindings";
import { choiceName, groupOf, offersSomething, orderOptions, pickersOf, summaryOf } from "./pickers";

function select(id: string, category: string, value = "a"): SessionOptionInfo {
  return {
    id,
    name: id,
    kind: "select",
    value,
    description: "",
    category,
    choices: [
      { value: "a", name: `${id} A`, description: "" },
      { value: "b", name: `${id} B`, description: "" },
    ],
    via: "config_option",
  };
}

function toggle(id: string, value: boolean): SessionOptionInfo {
  return {
    id,
    name: id,
    kind: "boolean",
    value,
    description: "",
    category: "",
    choices: [],
    via: "config_option",
  };
}

const modes = [
  { id: "ask", name: "Ask", description: "Asks before editing" },
  { id: "code", name: "Code", description: "" },
];

describe("the header's pickers of a member session", () => {
  it("groups options by category: mode, model, reasoning, then the others", () => {
    expect(groupOf({ category: "mode" })).toBe("mode");
    expect(groupOf({ category: "model" })).toBe("model");
    expect(groupOf({ category: "thought_level" })).toBe("reasoning");
    expect(groupOf({ category: "reasoning_effort" })).toBe("reasoning");
    expect(groupOf({ category: "_vendor" })).toBe("other");
    expect(groupOf({ category: "" })).toBe("other");
  });

  it("orders options by group and keeps the agent's order within a group", () => {
    const options = [
      select("extra", ""),
      select("effort", "thought_level"),
      select("fast", "model"),
      select("mode", "mode"),
      select("big", "model"),
      toggle("web", true),
    ];
    expect(orderOptions(options).map((o) => o.id)).toEqual([
      "mode",
      "fast",
      "big",
      "effort",
      "extra",
      "web",
    ]);
  });

  it("puts the session's modes first, then the options", () => {
    const session: MemberSession = {
      modes,
      mode: "code",
      options: [toggle("web", false), select("model", "model", "b")],
    };
    const pickers = pickersOf(session);
    expect(pickers.map((p) => [p.kind, p.key, p.value])).toEqual([
      ["mode", "mode", "code"],
      ["select", "option:model", "b"],
      ["boolean", "option:web", false],
    ]);
    expect(pickers[0]?.kind === "mode" && pickers[0].choices[0]).toEqual({
      value: "ask",
      name: "Ask",
      description: "Asks before editing",
    });
  });

  it("shows the models an agent offers the older way (session/set_model) as its model picker", () => {
    // gemini-cli: its modes, and its models in the `models` field, not as a config option.
    const models = { ...select("model", "model", "b"), via: "set_model" as const };
    const session: MemberSession = { modes, mode: "ask", options: [models] };
    const pickers = pickersOf(session);
    expect(pickers.map((p) => [p.kind, p.group, p.key, p.value])).toEqual([
      ["mode", "mode", "mode", "ask"],
      ["select", "model", "option:model", "b"],
    ]);
    expect(summaryOf(pickers)).toBe("Ask · model B");
  });

  it("leaves the modes out when the agent offers a mode option instead", () => {
    const session: MemberSession = { modes, mode: "ask", options: [select("mode", "mode")] };
    expect(pickersOf(session).map((p) => p.key)).toEqual(["option:mode"]);
  });

  it("offers nothing for an unknown session, an empty one or a select without choices", () => {
    expect(offersSomething(undefined)).toBe(false);
    expect(offersSomething({ modes: [], mode: "", options: [] })).toBe(false);
    const empty = { ...select("model", "model"), choices: [] };
    expect(offersSomething({ modes: [], mode: "", options: [empty] })).toBe(false);
    expect(offersSomething({ modes: [], mode: "", options: [toggle("web", false)] })).toBe(true);
  });

  it("names a value by its choice, or by itself when the agent did not list it", () => {
    const choices = select("model", "model").choices;
    expect(choiceName(choices, "b")).toBe("model B");
    expect(choiceName(choices, "gpt-9")).toBe("gpt-9");
  });

  it("sums a member up by its mode and its model", () => {
    const session: MemberSession = {
      modes,
      mode: "ask",
      options: [toggle("web", true), select("effort", "thought_level"), select("model", "model", "b")],
    };
    expect(summaryOf(pickersOf(session))).toBe("Ask · model B");
    expect(summaryOf(pickersOf({ modes: [], mode: "", options: [toggle("web", true)] }))).toBe("");
  });
});
