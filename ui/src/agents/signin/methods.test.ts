import { describe, expect, it } from "vitest";
import type { AuthMethodInfo, Message } from "../../../bindings";
import { cleaned, commandLine, complete, emptyValues, lastUserText, safeLink, savedMethod, varLabel } from "./methods";

function method(partial: Partial<AuthMethodInfo>): AuthMethodInfo {
  return { id: "m", name: "M", description: "", type: "agent", vars: [], link: "", command: [], saved: false, ...partial };
}

function message(role: Message["role"], ...texts: string[]): Message {
  return {
    id: `${role}-${texts.join()}`,
    channel: "c",
    createdAt: "",
    role,
    agent: role === "agent" ? "codex" : "",
    parts: texts.map((text) => ({ kind: "text", text, tool: null, plan: null, messageId: "", planId: "", planUri: "", removed: false, compaction: null, subagent: null })),
    done: true,
    queued: false,
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

describe("safeLink", () => {
  it("keeps web addresses", () => {
    expect(safeLink(" https://platform.openai.com/api-keys ")).toBe("https://platform.openai.com/api-keys");
    expect(safeLink("http://localhost:8080/x")).toBe("http://localhost:8080/x");
  });
  it("drops any other scheme and what is not an address", () => {
    expect(safeLink("javascript:alert(1)")).toBe("");
    expect(safeLink("file:///etc/passwd")).toBe("");
    expect(safeLink("data:text/html,hi")).toBe("");
    expect(safeLink("not a link")).toBe("");
    expect(safeLink("")).toBe("");
  });
});

describe("commandLine", () => {
  it("writes plain words as they are", () => {
    expect(commandLine(["npx", "@zed-industries/claude-code-acp", "--cli", "/login"])).toBe(
      "npx @zed-industries/claude-code-acp --cli /login",
    );
  });
  it("quotes words a shell would split or expand", () => {
    expect(commandLine(["node", "/My Apps/cli.js", "it's", ""])).toBe(`node '/My Apps/cli.js' 'it'\\''s' ''`);
    expect(commandLine(["echo", "$HOME"])).toBe("echo '$HOME'");
  });
});

describe("methods and their values", () => {
  const vars = [
    { name: "OPENAI_API_KEY", secret: true, label: "" },
    { name: "ORG", secret: false, label: "Organisation" },
  ];
  it("finds the env_var method whose values are saved", () => {
    expect(savedMethod([method({ id: "a" }), method({ id: "b", type: "env_var", saved: true })])?.id).toBe("b");
    expect(savedMethod([method({ id: "a", saved: true })])).toBeUndefined();
  });
  it("labels a field with its label, or its variable's name", () => {
    expect(vars.map(varLabel)).toEqual(["OPENAI_API_KEY", "Organisation"]);
  });
  it("is complete only when every variable has a value other than spaces", () => {
    expect(complete(vars, emptyValues(vars))).toBe(false);
    expect(complete(vars, { OPENAI_API_KEY: "sk-1", ORG: "  " })).toBe(false);
    expect(complete(vars, { OPENAI_API_KEY: "sk-1", ORG: "me" })).toBe(true);
    expect(complete([], {})).toBe(false);
  });
  it("sends values without the spaces and newline a paste brings", () => {
    expect(cleaned({ OPENAI_API_KEY: " sk-1\n" })).toEqual({ OPENAI_API_KEY: "sk-1" });
  });
});

describe("lastUserText", () => {
  it("is the person's newest message, as written, skipping agents' and system messages", () => {
    const messages = [message("user", "first"), message("user", "@codex ", "hello"), message("agent", "no"), message("system")];
    expect(lastUserText(messages)).toBe("@codex hello");
  });
  it("is empty when the person wrote nothing yet", () => {
    expect(lastUserText([message("agent", "hi")])).toBe("");
    expect(lastUserText([])).toBe("");
  });
});
