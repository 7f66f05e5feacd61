import { beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentInfo } from "../../../bindings";

const service = vi.hoisted(() => ({
  SignIn: vi.fn<(name: string, methodId: string, values: Record<string, string>) => Promise<AgentInfo>>(),
  SignOut: vi.fn<(name: string) => Promise<AgentInfo>>(),
  List: vi.fn(),
}));
vi.mock("../../../bindings", () => ({
  AgentService: { List: service.List },
  SignInService: { SignIn: service.SignIn, SignOut: service.SignOut },
  On: () => () => undefined,
}));

const { agents } = await import("../../lib/agents.svelte");
const { signIns } = await import("./signin.svelte");

function codex(partial: Partial<AgentInfo> = {}): AgentInfo {
  return {
    name: "codex",
    title: "Codex",
    icon: "",
    description: "",
    state: "ready",
    error: "",
    outdated: false,
    commandMissing: "",
    authMethods: [],
    needsSignIn: true,
    listsSessions: null,
    ...partial,
  };
}

describe("signIns", () => {
  beforeEach(() => {
    agents.list = [codex()];
    signIns.recovered = {};
    signIns.errors = {};
    service.SignIn.mockReset();
    service.SignOut.mockReset();
  });

  it("signs in, shows the fresh info at once and offers Send again when it was needed", async () => {
    let answer!: (info: AgentInfo) => void;
    service.SignIn.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const done = signIns.signIn("codex", "openai-api-key", { OPENAI_API_KEY: "sk-1" });
    expect(signIns.pending.codex).toBe("openai-api-key");
    // A second click while it waits does not sign in twice.
    expect(await signIns.signIn("codex", "chatgpt")).toBe(false);
    answer(codex({ needsSignIn: false }));
    expect(await done).toBe(true);
    expect(service.SignIn).toHaveBeenCalledTimes(1);
    expect(service.SignIn).toHaveBeenCalledWith("codex", "openai-api-key", { OPENAI_API_KEY: "sk-1" });
    expect(signIns.pending.codex).toBeUndefined();
    expect(agents.byName("codex")?.needsSignIn).toBe(false);
    expect(signIns.recovered.codex).toBe(true);
    signIns.forget("codex");
    expect(signIns.recovered.codex).toBeUndefined();
  });

  it("does not offer Send again after a sign-in nobody needed", async () => {
    agents.list = [codex({ needsSignIn: false })];
    service.SignIn.mockResolvedValue(codex({ needsSignIn: false }));
    expect(await signIns.signIn("codex", "chatgpt")).toBe(true);
    expect(signIns.recovered.codex).toBeUndefined();
  });

  it("keeps the backend's sentence when signing in or out fails", async () => {
    service.SignIn.mockRejectedValue(new Error("signing in to `codex` failed: bad key"));
    expect(await signIns.signIn("codex", "openai-api-key", { OPENAI_API_KEY: "x" })).toBe(false);
    expect(signIns.errors.codex).toBe("Signing in to `codex` failed: bad key"); // shown as a sentence
    service.SignOut.mockRejectedValue(new Error("the keychain is locked"));
    expect(await signIns.signOut("codex")).toBe(false);
    expect(signIns.errors.codex).toBe("The keychain is locked");
    expect(signIns.signingOut.codex).toBeUndefined();
  });

  it("signs out and shows the agent without its saved method", async () => {
    service.SignOut.mockResolvedValue(codex({ needsSignIn: false }));
    expect(await signIns.signOut("codex")).toBe(true);
    expect(service.SignOut).toHaveBeenCalledWith("codex");
  });
});
