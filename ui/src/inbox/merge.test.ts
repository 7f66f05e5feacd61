import { describe, expect, it } from "vitest";
import type { PermissionRequested } from "../../bindings";
import { mergeLoaded } from "./merge";

function request(id: string): PermissionRequested {
  return {
    id,
    channel: "c",
    agent: "a",
    messageId: "m",
    toolCall: {
      id: "t",
      title: "",
      kind: "edit",
      status: "pending",
      input: "",
      output: "",
      locations: [],
      diffs: [],
      terminals: [],
      allowedByRule: "",
      rejected: false,
      sessions: [],
    },
    options: [],
    rejections: 0,
    askedBySidekicks: false,
  };
}

const ids = (list: PermissionRequested[]): string[] => list.map((r) => r.id);

describe("the inbox's first load joined with the events that came meanwhile", () => {
  it("keeps the loaded requests in their order, then those asked meanwhile", () => {
    expect(ids(mergeLoaded([request("1"), request("2")], [request("3")], new Set()))).toEqual(["1", "2", "3"]);
  });

  it("lists a request the answer and an event both carry once", () => {
    expect(ids(mergeLoaded([request("1")], [request("1"), request("2"), request("2")], new Set()))).toEqual([
      "1",
      "2",
    ]);
  });

  it("leaves out requests resolved meanwhile, loaded or arrived", () => {
    expect(ids(mergeLoaded([request("1"), request("2")], [request("3")], new Set(["1", "3"])))).toEqual(["2"]);
  });
});
