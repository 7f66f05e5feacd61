import { beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentSession, Channel } from "../../bindings";

const service = vi.hoisted(() => ({
  Sessions: vi.fn<(name: string) => Promise<AgentSession[]>>(),
  OpenSession: vi.fn<(agent: string, sessionId: string) => Promise<Channel>>(),
}));
vi.mock("../../bindings", () => ({
  AgentService: { Sessions: service.Sessions },
  ChannelService: { OpenSession: service.OpenSession },
  On: () => () => undefined,
}));

const { agentSessions, updatedText } = await import("./sessions.svelte");
const { navigation } = await import("../lib/navigation.svelte");

const parser: AgentSession = {
  id: "old-1",
  title: "Fix the parser",
  folder: "/work",
  updatedAt: "2026-11-30T10:00:00Z",
};

describe("agentSessions", () => {
  beforeEach(() => {
    agentSessions.lists = {};
    agentSessions.errors = {};
    service.Sessions.mockReset();
    service.OpenSession.mockReset();
    navigation.view = { kind: "agents" };
  });

  it("reads the agent's sessions once at a time and keeps them", async () => {
    let answer!: (list: AgentSession[]) => void;
    service.Sessions.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const done = agentSessions.load("keeper");
    expect(agentSessions.loading.keeper).toBe(true);
    expect(await agentSessions.load("keeper")).toBe(false); // a second click waits for the first
    answer([parser]);
    expect(await done).toBe(true);
    expect(service.Sessions).toHaveBeenCalledTimes(1);
    expect(agentSessions.lists.keeper).toEqual([parser]);
    expect(agentSessions.loading.keeper).toBeUndefined();
  });

  it("says why the agent cannot list, in the backend's words", async () => {
    service.Sessions.mockRejectedValue(new Error("`plain` does not list its sessions"));
    expect(await agentSessions.load("plain")).toBe(false);
    expect(agentSessions.errors.plain).toBe("`plain` does not list its sessions");
    expect(agentSessions.lists.plain).toBeUndefined();
  });

  it("opens a session as a conversation and shows it", async () => {
    service.OpenSession.mockResolvedValue({
      id: "c1",
      name: "Fix the parser",
      description: "",
      direct: "",
      members: ["keeper"],
      handoffs: 3,
      forkedFrom: null,
      title: "",
      createdAt: "",
      lastActivity: "",
    });
    expect(await agentSessions.open("keeper", "old-1")).toBe(true);
    expect(service.OpenSession).toHaveBeenCalledWith("keeper", "old-1");
    expect(navigation.view).toEqual({ kind: "channel", id: "c1" });
    expect(agentSessions.opening.keeper).toBeUndefined();
  });

  it("stays where it is when the session cannot be opened", async () => {
    service.OpenSession.mockRejectedValue(new Error("`keeper` could not open that session: gone"));
    expect(await agentSessions.open("keeper", "gone")).toBe(false);
    expect(navigation.view).toEqual({ kind: "agents" });
    expect(agentSessions.errors.keeper).toContain("could not open that session");
  });
});

describe("updatedText", () => {
  it("gives a date the agent said, and nothing for none or a non-date", () => {
    expect(updatedText("2026-11-30T10:00:00Z")).toMatch(/2026/);
    expect(updatedText("")).toBe("");
    expect(updatedText("yesterday-ish")).toBe("");
  });
});
