import { beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentInfo, Channel } from "../../bindings";

const service = vi.hoisted(() => ({
  NewConversation: vi.fn<(agent: string) => Promise<Channel>>(),
}));
vi.mock("../../bindings", () => ({
  ChannelService: { NewConversation: service.NewConversation },
  On: () => () => undefined,
}));

const { conversationPicker, impliedAgent, startNewConversation } = await import("./newConversation.svelte");
const { agents } = await import("../lib/agents.svelte");
const { channels } = await import("../lib/channels.svelte");
const { dialogs } = await import("../lib/dialogs.svelte");
const { navigation } = await import("../lib/navigation.svelte");

function agent(name: string): AgentInfo {
  return { name, title: name } as AgentInfo;
}

function channel(id: string, direct: string): Channel {
  return { id, name: direct ? "" : id, description: "", direct, members: direct ? [direct] : [] } as Channel;
}

describe("New conversation (Ctrl/Cmd+N)", () => {
  beforeEach(() => {
    service.NewConversation.mockReset();
    conversationPicker.open = false;
    agents.list = [agent("demo"), agent("bob")];
    channels.all = [channel("d1", "demo"), channel("room", "")];
    navigation.view = { kind: "agents" };
  });

  it("is with the agent of the direct conversation on screen, and opens the new one", async () => {
    navigation.view = { kind: "channel", id: "d1" };
    service.NewConversation.mockResolvedValue(channel("d2", "demo"));
    expect(impliedAgent()).toBe("demo");
    startNewConversation();
    await vi.waitFor(() => expect(navigation.view).toEqual({ kind: "channel", id: "d2" }));
    expect(service.NewConversation).toHaveBeenCalledWith("demo");
    expect(conversationPicker.open).toBe(false);
  });

  it("asks which agent in a channel or elsewhere, unless only one is configured", () => {
    navigation.view = { kind: "channel", id: "room" };
    startNewConversation();
    expect(conversationPicker.open).toBe(true);
    expect(service.NewConversation).not.toHaveBeenCalled();

    conversationPicker.open = false;
    agents.list = [agent("solo")];
    navigation.view = { kind: "settings" };
    expect(impliedAgent()).toBe("solo");
  });

  it("says why it could not start one", async () => {
    service.NewConversation.mockRejectedValue(new Error("no agent named `gone`"));
    const asked = vi.spyOn(dialogs, "ask").mockResolvedValue("ok");
    navigation.view = { kind: "channel", id: "d1" };
    startNewConversation();
    await vi.waitFor(() => expect(asked).toHaveBeenCalled());
    expect(asked.mock.calls[0]![0].message).toBe("No agent named `gone`");
    expect(navigation.view).toEqual({ kind: "channel", id: "d1" });
    asked.mockRestore();
  });
});
