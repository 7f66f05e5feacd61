import { describe, expect, it } from "vitest";
import type { SignInPrompt, SignInTerminalExited, SignInTerminalInfo, SignInTerminalOutput } from "../../../bindings";
import { TerminalSession, type TerminalBackend } from "./terminalSession";

/** A backend whose SignInTerminal answers when the test says, recording every call. */
class FakeBackend implements TerminalBackend {
  calls: unknown[][] = [];
  outputs = new Set<(event: SignInTerminalOutput) => void>();
  exits = new Set<(event: SignInTerminalExited) => void>();
  prompts = new Set<(event: SignInPrompt) => void>();
  answer!: (info: SignInTerminalInfo) => void;
  refuse!: (err: Error) => void;

  open(agent: string, methodId: string, cols: number, rows: number): Promise<SignInTerminalInfo> {
    this.calls.push(["open", agent, methodId, cols, rows]);
    return new Promise((resolve, reject) => {
      this.answer = resolve;
      this.refuse = reject;
    });
  }
  async input(terminal: string, data: string): Promise<void> {
    this.calls.push(["input", terminal, data]);
  }
  async resize(terminal: string, cols: number, rows: number): Promise<void> {
    this.calls.push(["resize", terminal, cols, rows]);
  }
  async close(terminal: string): Promise<void> {
    this.calls.push(["close", terminal]);
  }
  onOutput(callback: (event: SignInTerminalOutput) => void): () => void {
    this.outputs.add(callback);
    return () => this.outputs.delete(callback);
  }
  onExited(callback: (event: SignInTerminalExited) => void): () => void {
    this.exits.add(callback);
    return () => this.exits.delete(callback);
  }
  onPrompt(callback: (event: SignInPrompt) => void): () => void {
    this.prompts.add(callback);
    return () => this.prompts.delete(callback);
  }
  prompt(terminal: string, url: string, asksCode: boolean): void {
    for (const cb of [...this.prompts]) cb({ agent: "claude", terminal, url, asksCode });
  }
  output(terminal: string, data: string): void {
    for (const cb of [...this.outputs]) cb({ terminal, data });
  }
  exit(terminal: string, code: number | null): void {
    for (const cb of [...this.exits]) cb({ terminal, agent: "claude", code });
  }
}

function session(): { backend: FakeBackend; sink: string[]; run: TerminalSession } {
  const backend = new FakeBackend();
  const sink: string[] = [];
  const run = new TerminalSession(backend, {
    write: (data) => sink.push(`write ${data}`),
    exited: (code) => sink.push(`exited ${code}`),
    failed: (message) => sink.push(`failed ${message}`),
    prompt: (url, asksCode) => sink.push(`prompt ${url} ${asksCode}`),
  });
  return { backend, sink, run };
}

const INFO = { terminal: "t1", agent: "claude", command: ["claude", "/login"] };

describe("TerminalSession", () => {
  it("writes only its own terminal's output, including what came before the id was known", async () => {
    const { backend, sink, run } = session();
    const started = run.start("claude", "claude-login", 80, 24);
    backend.output("t1", "early ");
    backend.output("other", "not mine");
    backend.answer(INFO);
    await started;
    backend.output("t1", "later");
    backend.output("other", "still not mine");
    expect(run.phase).toBe("running");
    expect(run.command).toEqual(["claude", "/login"]);
    expect(backend.calls[0]).toEqual(["open", "claude", "claude-login", 80, 24]);
    expect(sink).toEqual(["write early ", "write later"]);
  });

  it("passes on its own terminal's prompts, held like its output until the id is known", async () => {
    const { backend, sink, run } = session();
    const started = run.start("claude", "claude-login", 80, 24);
    backend.prompt("t1", "https://claude.test/oauth", false);
    backend.prompt("other", "https://elsewhere.test", true);
    backend.answer(INFO);
    await started;
    backend.prompt("t1", "https://claude.test/oauth", true);
    expect(sink).toEqual(["prompt https://claude.test/oauth false", "prompt https://claude.test/oauth true"]);
    run.close();
    expect(backend.prompts.size).toBe(0); // unsubscribed
  });

  it("sends keystrokes and sizes to its terminal while the command runs, not after it exited", async () => {
    const { backend, sink, run } = session();
    const started = run.start("claude", "claude-login", 80, 24);
    run.input("ignored before it runs");
    backend.answer(INFO);
    await started;
    run.input("code-123\r");
    run.resize(100, 30);
    backend.exit("other", 1);
    backend.exit("t1", 0);
    run.input("too late");
    expect(backend.calls.slice(1)).toEqual([
      ["input", "t1", "code-123\r"],
      ["resize", "t1", 100, 30],
    ]);
    expect(run.phase).toBe("exited");
    expect(sink).toEqual(["exited 0"]);
    expect(backend.outputs.size + backend.exits.size).toBe(0); // unsubscribed
  });

  it("reports an exit that came before SignInTerminal answered", async () => {
    const { backend, sink, run } = session();
    const started = run.start("claude", "claude-login", 80, 24);
    backend.output("t1", "bye");
    backend.exit("t1", 2);
    backend.answer(INFO);
    await started;
    expect(sink).toEqual(["write bye", "exited 2"]);
  });

  it("closes a running terminal, and one that finishes starting after it was closed", async () => {
    const first = session();
    const started = first.run.start("claude", "claude-login", 80, 24);
    first.backend.answer(INFO);
    await started;
    first.run.close();
    first.backend.output("t1", "after close");
    expect(first.backend.calls.at(-1)).toEqual(["close", "t1"]);
    expect(first.sink).toEqual([]);

    const second = session();
    const starting = second.run.start("claude", "claude-login", 80, 24);
    second.run.close();
    second.backend.answer({ ...INFO, terminal: "t2" });
    await starting;
    expect(second.backend.calls.at(-1)).toEqual(["close", "t2"]);
    expect(second.run.phase).toBe("closed");
  });

  it("says why the terminal could not start, and can run again", async () => {
    const { backend, sink, run } = session();
    const started = run.start("claude", "claude-login", 80, 24);
    backend.refuse(new Error("claude has no sign-in method x"));
    await started;
    expect(run.phase).toBe("failed");
    expect(sink).toEqual(["failed claude has no sign-in method x"]);
    const again = run.start("claude", "claude-login", 80, 24);
    backend.answer({ ...INFO, terminal: "t3" });
    await again;
    expect(run.phase).toBe("running");
    expect(run.terminal).toBe("t3");
  });
});
