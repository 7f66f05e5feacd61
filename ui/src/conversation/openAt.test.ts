// The conversation model opened at a message, against a fake backend: the page around it, newer
// pages until the end, and the messages that arrive meanwhile kept apart, then joined in order.
// And the person's messages it hears of for the first time (the list brings each into view).

import { beforeEach, describe, expect, it, vi } from "vitest";
import type { AroundPage, Conversation, Message, NewerPage } from "../../bindings";

type Listener = (payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();
const backend = {
  conversation: null as unknown as Conversation,
  around: null as unknown as AroundPage,
  newer: [] as NewerPage[],
  newerCalls: [] as string[],
};

vi.mock("../../bindings", () => ({
  ChannelService: {
    Conversation: async () => backend.conversation,
  },
  SearchService: {
    Around: async () => backend.around,
    Newer: async (_id: string, afterId: string) => {
      backend.newerCalls.push(afterId);
      const page = backend.newer.shift();
      if (!page) throw new Error("no more pages");
      return page;
    },
  },
  On: (name: string, callback: Listener) => {
    const set = listeners.get(name) ?? new Set();
    set.add(callback);
    listeners.set(name, set);
    return () => set.delete(callback);
  },
}));
vi.mock("./session/sessions.svelte", () => ({ memberSessions: { loading: () => () => undefined } }));

const { ConversationModel } = await import("./model.svelte");

function message(id: string, queued = false): Message {
  return {
    id,
    channel: "c",
    createdAt: "2026-12-01T06:00:00Z",
    role: "user",
    agent: "",
    parts: [{ kind: "text", text: id, tool: null, plan: null, messageId: "", planId: "", planUri: "", removed: false, compaction: null, subagent: null }],
    done: true,
    queued,
    stopReason: null,
    error: "",
    errorDetails: "",
    code: null,
    attachments: [],
    dropped: [],
    handoff: null,
    madeRoom: null,
  };
}

const range = (from: number, to: number): Message[] =>
  Array.from({ length: to - from }, (_, i) => message(`m${from + i}`));

function emit(name: string, payload: unknown): void {
  for (const listener of listeners.get(name) ?? []) listener(payload);
}

function conversation(messages: Message[], more: boolean): Conversation {
  return {
    channel: { id: "c", name: "room", description: "", direct: "", members: [], createdAt: "" } as never,
    busy: false,
    queued: 0,
    answering: "",
    next: [],
    usage: {},
    permissions: [],
    sessions: {},
    messages,
    more,
  };
}

const loadedIds = (model: InstanceType<typeof ConversationModel>): string[] => model.visible.map((m) => m.id);

beforeEach(() => {
  listeners.clear();
  backend.newer = [];
  backend.newerCalls = [];
  // 300 messages: the latest page is m200..m299; m20 is asked for.
  backend.conversation = conversation(range(200, 300), true);
  backend.around = { messages: range(0, 70), more: false, moreAfter: true };
});

describe("a conversation opened at a message", () => {
  it("shows the page around it, detached from the end, and asks to reveal it", async () => {
    const model = new ConversationModel("c");
    await model.open("m20");
    expect(model.visible[0]?.id).toBe("m0");
    expect(model.visible.some((m) => m.id === "m20")).toBe(true);
    expect(model.moreAfter).toBe(true);
    expect(model.hiddenBelow).toBeGreaterThan(0); // the list offers "Jump to latest"
    expect(model.reveal?.id).toBe("m20");
    model.dispose();
  });

  it("keeps messages that arrive while detached out of the page, then joins them at the end", async () => {
    const model = new ConversationModel("c");
    await model.open("m20");
    emit("message:updated", { channel: "c", message: message("new-1") });
    expect(loadedIds(model)).not.toContain("new-1"); // not appended after m69
    // Paging down: 70..169, then 170..299 and the end.
    backend.newer = [
      { messages: range(70, 170), moreAfter: true },
      { messages: range(170, 300), moreAfter: false },
    ];
    while (await model.showLater()) {
      /* page down until the end */
    }
    expect(backend.newerCalls).toEqual(["m69", "m169"]);
    expect(model.moreAfter).toBe(false);
    const last = model.visible.slice(-3).map((m) => m.id);
    expect(last).toEqual(["m298", "m299", "new-1"]); // in its place, once
    expect(model.hiddenBelow).toBe(0);
    // Live again: the next message appends.
    model.following = true;
    emit("message:updated", { channel: "c", message: message("new-2") });
    expect(model.visible[model.visible.length - 1]?.id).toBe("new-2");
    model.dispose();
  });

  it("jumps to the latest messages, those that arrived while detached included", async () => {
    const model = new ConversationModel("c");
    await model.open("m20");
    emit("message:updated", { channel: "c", message: message("new-1") });
    model.showLatest();
    expect(model.moreAfter).toBe(false);
    expect(model.visible[model.visible.length - 1]?.id).toBe("new-1");
    expect(model.more).toBe(true); // older than the latest page: Older as usual
    model.dispose();
  });

  it("streams an answer into the kept latest messages while detached", async () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal("requestAnimationFrame", (callback: FrameRequestCallback) => frames.push(callback));
    const model = new ConversationModel("c");
    await model.open("m20");
    const answer: Message = { ...message("a1"), role: "agent", agent: "demo", done: false, parts: [] };
    emit("message:updated", { channel: "c", message: answer });
    emit("message:delta", { channel: "c", messageId: "a1", index: 0, kind: "text", text: "Hel", part: null });
    emit("message:delta", { channel: "c", messageId: "a1", index: 0, kind: "text", text: "lo", part: null });
    frames.splice(0).forEach((frame) => frame(0));
    expect(model.visible.some((m) => m.id === "a1")).toBe(false);
    expect(model.streaming?.id).toBe("a1"); // the composer knows who is answering
    model.showLatest();
    const last = model.visible[model.visible.length - 1];
    expect(last?.id).toBe("a1");
    expect(last?.parts[0]?.text).toBe("Hello");
    vi.unstubAllGlobals();
    model.dispose();
  });

  it("opens at a message of the last page without detaching", async () => {
    backend.around = { messages: range(250, 300), more: true, moreAfter: false };
    const model = new ConversationModel("c");
    await model.open("m290");
    expect(model.moreAfter).toBe(false);
    expect(model.hiddenBelow).toBe(0);
    expect(model.reveal?.id).toBe("m290");
    expect(model.visible[0]?.id).toBe("m250");
    model.dispose();
  });

  it("goes to a message already loaded without asking the backend", async () => {
    const model = new ConversationModel("c");
    await model.open();
    const around = vi.fn();
    backend.around = new Proxy({} as AroundPage, { get: around });
    await model.goTo("m250");
    expect(around).not.toHaveBeenCalled();
    expect(model.reveal?.id).toBe("m250");
    expect(model.moreAfter).toBe(false);
    model.dispose();
  });

  it("goes to a message asked for while the conversation was still opening", async () => {
    const model = new ConversationModel("c");
    const opening = model.open();
    void model.goTo("m250");
    await opening;
    expect(model.reveal?.id).toBe("m250");
    model.dispose();
  });

  it("shows the latest page and says why when the message cannot be found", async () => {
    const model = new ConversationModel("c");
    const { SearchService } = await import("../../bindings");
    const spy = vi.spyOn(SearchService, "Around").mockRejectedValueOnce(new Error("no such message"));
    await model.open("gone");
    expect(model.atError).toBe("No such message");
    expect(model.visible[model.visible.length - 1]?.id).toBe("m299");
    expect(model.reveal).toBeNull();
    spy.mockRestore();
    model.dispose();
  });
});

describe("the person's messages heard of for the first time", () => {
  it("counts a new one, queued or not, and not a change to one already known", async () => {
    backend.conversation = conversation([...range(0, 3), message("waiting", true)], false);
    const model = new ConversationModel("c");
    await model.open();
    expect(model.sentHeard).toBe(0); // the snapshot's messages, queued one included
    // A queued message whose turn came, and a message of the snapshot edited: not new.
    emit("message:updated", { channel: "c", message: message("waiting") });
    emit("message:updated", { channel: "c", message: message("m1") });
    expect(model.sentHeard).toBe(0);
    emit("message:updated", { channel: "c", message: message("sent", true) }); // sent now, queued
    expect(model.sentHeard).toBe(1);
    emit("message:updated", { channel: "c", message: message("sent") }); // its turn came
    emit("message:updated", { channel: "c", message: { ...message("answer"), role: "agent" } });
    expect(model.sentHeard).toBe(1);
    model.dispose();
  });

  it("knows the messages kept while detached from the end", async () => {
    const model = new ConversationModel("c");
    await model.open("m20"); // detached: m200..m299 kept as the latest
    emit("message:updated", { channel: "c", message: message("m250") });
    expect(model.sentHeard).toBe(0);
    emit("message:updated", { channel: "c", message: message("new-1") });
    emit("message:updated", { channel: "c", message: message("new-1") });
    expect(model.sentHeard).toBe(1);
    model.dispose();
  });
});
