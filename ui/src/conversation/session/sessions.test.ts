// The store of member sessions, against a fake bridge: events and answers arrive when the test
// says, so that each ordering (an event during a load, an answer after an event) can be played.

import { beforeEach, describe, expect, it, vi } from "vitest";
import type { MemberSession } from "../../../bindings";

type Handler = (payload: unknown) => void;
const bridge = vi.hoisted(() => ({
  handlers: new Map<string, Set<(payload: unknown) => void>>(),
  SetMode: vi.fn(),
  SetOption: vi.fn(),
}));

vi.mock("../../../bindings", () => ({
  SessionService: { SetMode: bridge.SetMode, SetOption: bridge.SetOption },
  On: (name: string, callback: Handler) => {
    const set = bridge.handlers.get(name) ?? new Set<Handler>();
    bridge.handlers.set(name, set);
    set.add(callback);
    return () => set.delete(callback);
  },
}));

const { SessionsStore } = await import("./sessions.svelte");

function emit(name: string, payload: unknown): void {
  for (const handler of bridge.handlers.get(name) ?? []) handler(payload);
}

function session(mode: string, model = "small"): MemberSession {
  return {
    modes: [
      { id: "ask", name: "Ask", description: "" },
      { id: "code", name: "Code", description: "" },
    ],
    mode,
    options: [
      {
        id: "model",
        name: "Model",
        kind: "select",
        value: model,
        description: "",
        category: "model",
        choices: [
          { value: "small", name: "Small", description: "" },
          { value: "large", name: "Large", description: "" },
        ],
        via: "config_option",
      },
    ],
  };
}

/** A promise and the functions that settle it, for answers the test releases later. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

let store: InstanceType<typeof SessionsStore>;
let unfollow: () => void;

beforeEach(() => {
  unfollow?.();
  bridge.handlers.clear();
  bridge.SetMode.mockReset();
  bridge.SetOption.mockReset();
  store = new SessionsStore();
  unfollow = store.follow();
});

describe("the member sessions store", () => {
  it("keeps the sessions a conversation was loaded with", () => {
    store.loading("c1")({ demo: session("ask"), alpha: session("code") });
    expect(store.of("c1", "demo")?.mode).toBe("ask");
    expect(store.of("c1", "alpha")?.mode).toBe("code");
    expect(store.of("c2", "demo")).toBeUndefined();
  });

  it("applies session:changed to the right channel and agent only", () => {
    store.loading("c1")({ demo: session("ask"), alpha: session("ask") });
    store.loading("c2")({ demo: session("ask") });
    emit("session:changed", { channel: "c1", agent: "demo", session: session("code") });
    expect(store.of("c1", "demo")?.mode).toBe("code");
    expect(store.of("c1", "alpha")?.mode).toBe("ask");
    expect(store.of("c2", "demo")?.mode).toBe("ask");
  });

  it("learns of a session that opened in a channel it has not loaded", () => {
    emit("session:changed", { channel: "c9", agent: "demo", session: session("code") });
    expect(store.of("c9", "demo")?.mode).toBe("code");
  });

  it("keeps an event that arrived while the conversation was loading over the older snapshot", () => {
    const seed = store.loading("c1");
    emit("session:changed", { channel: "c1", agent: "demo", session: session("code") });
    seed({ demo: session("ask"), alpha: session("ask") });
    expect(store.of("c1", "demo")?.mode).toBe("code");
    expect(store.of("c1", "alpha")?.mode).toBe("ask");
  });

  it("shows a change as pending until it is answered, then the session it returns", async () => {
    store.loading("c1")({ demo: session("ask") });
    const answer = deferred<MemberSession>();
    bridge.SetMode.mockReturnValue(answer.promise);
    const done = store.setMode("c1", "demo", "code");
    expect(bridge.SetMode).toHaveBeenCalledWith("c1", "demo", "code");
    expect(store.pendingValue("c1", "demo", "mode")).toBe("code");
    expect(store.of("c1", "demo")?.mode).toBe("ask");
    answer.resolve(session("code"));
    await done;
    expect(store.pendingValue("c1", "demo", "mode")).toBeUndefined();
    expect(store.of("c1", "demo")?.mode).toBe("code");
  });

  it("reverts a pending change that fails and keeps its sentence for the member", async () => {
    store.loading("c1")({ demo: session("ask") });
    const answer = deferred<MemberSession>();
    bridge.SetOption.mockReturnValue(answer.promise);
    const done = store.setOption("c1", "demo", "model", "large");
    expect(store.pendingValue("c1", "demo", "option:model")).toBe("large");
    answer.reject(new Error("The model large is not available on your plan."));
    await done;
    expect(store.pendingValue("c1", "demo", "option:model")).toBeUndefined();
    expect(store.of("c1", "demo")?.options[0]?.value).toBe("small");
    expect(store.errorOf("c1", "demo")).toBe("The model large is not available on your plan.");
    expect(store.errorOf("c1", "alpha")).toBe("");
  });

  it("forgets the sentence at the member's next change, or when dismissed", async () => {
    store.loading("c1")({ demo: session("ask") });
    bridge.SetMode.mockRejectedValueOnce(new Error("no such mode"));
    await store.setMode("c1", "demo", "nope");
    expect(store.errorOf("c1", "demo")).toBe("No such mode"); // shown as a sentence
    const answer = deferred<MemberSession>();
    bridge.SetMode.mockReturnValue(answer.promise);
    const done = store.setMode("c1", "demo", "code");
    expect(store.errorOf("c1", "demo")).toBe("");
    answer.resolve(session("code"));
    await done;
    bridge.SetMode.mockRejectedValueOnce(new Error("no such mode"));
    await store.setMode("c1", "demo", "nope");
    store.dismissError("c1", "demo");
    expect(store.errorOf("c1", "demo")).toBe("");
  });

  it("does not send a second change of a control while the first is pending", async () => {
    store.loading("c1")({ demo: session("ask") });
    const answer = deferred<MemberSession>();
    bridge.SetMode.mockReturnValue(answer.promise);
    const first = store.setMode("c1", "demo", "code");
    await store.setMode("c1", "demo", "ask");
    expect(bridge.SetMode).toHaveBeenCalledTimes(1);
    answer.resolve(session("code"));
    await first;
  });

  it("keeps a change the agent made itself during a pending request over the request's answer", async () => {
    store.loading("c1")({ demo: session("code") });
    const answer = deferred<MemberSession>();
    bridge.SetOption.mockReturnValue(answer.promise);
    const done = store.setOption("c1", "demo", "model", "large");
    // The agent leaves plan mode meanwhile (its own change, after the model was set).
    emit("session:changed", { channel: "c1", agent: "demo", session: session("ask", "large") });
    answer.resolve(session("code", "large"));
    await done;
    expect(store.of("c1", "demo")?.mode).toBe("ask");
    expect(store.of("c1", "demo")?.options[0]?.value).toBe("large");
  });

  it("forgets everything when another configuration is loaded, and answers to older requests", async () => {
    store.loading("c1")({ demo: session("ask") });
    const answer = deferred<MemberSession>();
    bridge.SetMode.mockReturnValue(answer.promise);
    const done = store.setMode("c1", "demo", "code");
    emit("config:changed", {});
    expect(store.of("c1", "demo")).toBeUndefined();
    expect(store.pendingValue("c1", "demo", "mode")).toBeUndefined();
    answer.resolve(session("code"));
    await done;
    expect(store.of("c1", "demo")).toBeUndefined();
  });
});
