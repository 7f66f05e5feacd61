import { beforeEach, describe, expect, it, vi } from "vitest";
import type { AgentInfo, SignInPrompt } from "../../../bindings";

const service = vi.hoisted(() => ({
  SignIn: vi.fn<(name: string, methodId: string, values: Record<string, string>) => Promise<AgentInfo>>(),
  SignOut: vi.fn<(name: string) => Promise<AgentInfo>>(),
  SignInCode: vi.fn<(name: string, code: string) => Promise<void>>(),
  CancelSignIn: vi.fn<(name: string) => Promise<void>>(),
  List: vi.fn(),
  prompts: new Set<(payload: SignInPrompt) => void>(),
}));
vi.mock("../../../bindings", () => ({
  AgentService: { List: service.List },
  SignInService: {
    SignIn: service.SignIn,
    SignOut: service.SignOut,
    SignInCode: service.SignInCode,
    CancelSignIn: service.CancelSignIn,
  },
  On: (name: string, callback: (payload: SignInPrompt) => void) => {
    if (name !== "signin:prompt") return () => undefined;
    service.prompts.add(callback);
    return () => service.prompts.delete(callback);
  },
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
    signInHint: "",
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

  it("shows what the agent printed during its sign-in, sends the code, and forgets it at the end", async () => {
    let answer!: (info: AgentInfo) => void;
    service.SignIn.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    service.SignInCode.mockResolvedValue(undefined);
    const done = signIns.signIn("codex", "chatgpt");
    const prompt = { agent: "codex", terminal: "", url: "https://x.test/auth", asksCode: true };
    for (const cb of service.prompts) cb({ ...prompt, agent: "other" }); // not this agent's
    for (const cb of service.prompts) cb({ ...prompt, terminal: "t1" }); // a terminal's
    expect(signIns.prompts.codex).toBeUndefined();
    for (const cb of service.prompts) cb(prompt);
    expect(signIns.prompts.codex).toEqual(prompt);
    expect(await signIns.sendCode("codex", "4/abc")).toBe(true);
    expect(service.SignInCode).toHaveBeenCalledWith("codex", "4/abc");
    answer(codex({ needsSignIn: false }));
    expect(await done).toBe(true);
    expect(signIns.prompts.codex).toBeUndefined();
    expect(service.prompts.size).toBe(0); // unsubscribed
    expect(signIns.recoveredWith.codex).toBe("");
  });

  it("cancels a sign-in without showing its refusal as an error", async () => {
    let refuse!: (err: Error) => void;
    service.SignIn.mockReturnValue(new Promise((_resolve, reject) => (refuse = reject)));
    service.CancelSignIn.mockImplementation(async () => refuse(new Error("the sign-in was cancelled")));
    const done = signIns.signIn("codex", "chatgpt");
    await signIns.cancel("codex");
    expect(await done).toBe(false);
    expect(service.CancelSignIn).toHaveBeenCalledWith("codex");
    expect(signIns.errors.codex).toBeUndefined();
    expect(signIns.pending.codex).toBeUndefined();
  });

  it("shows a refused code as the sign-in's error", async () => {
    service.SignInCode.mockRejectedValue(new Error("a code must be a single line of text"));
    expect(await signIns.sendCode("codex", "a\nb")).toBe(false);
    expect(signIns.errors.codex).toBe("A code must be a single line of text");
  });
});
