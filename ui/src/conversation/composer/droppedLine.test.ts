// Issue 29: the line a Stop leaves when recipients of the message will not answer it.
import { describe, expect, it } from "vitest";
import type { Message } from "../../../bindings";
import { systemText } from "../format";

function dropped(names: string[]): Message {
  return {
    id: "m",
    channel: "c",
    createdAt: "",
    role: "system",
    agent: "",
    parts: [],
    done: true,
    queued: false,
    stopReason: null,
    error: "",
    errorDetails: "",
    code: "recipients-dropped",
    attachments: [],
    dropped: names,
    handoff: null,
    madeRoom: null,
  };
}

describe("the recipients-dropped line", () => {
  it("names the one recipient that will not answer", () => {
    expect(systemText(dropped(["alice"]))).toBe("Stopped: @alice will not answer this message");
  });

  it("lists several in answering order", () => {
    expect(systemText(dropped(["alice", "carol"]))).toBe("Stopped: @alice, @carol will not answer this message");
  });
});
