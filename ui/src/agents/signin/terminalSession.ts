// One run of a `terminal` sign-in method, between the dialog's xterm and the backend:
// SignInService.SignInTerminal opens a pseudo-terminal and says its id; `signin:output` and
// `signin:exited` carry every terminal's output and end, so only those of this id are kept.
// Output may arrive before SignInTerminal's answer (the event pump and the call's result race):
// events are held until the id is known, then the ones of this terminal are replayed in order.
// `signin:prompt` (a web address in the output, a code asked: found by the backend, which also
// joins an address the program hard-wrapped) is held and filtered the same way.
// Tested in terminalSession.test.ts with a fake backend.

import type { SignInPrompt, SignInTerminalExited, SignInTerminalInfo, SignInTerminalOutput } from "../../../bindings";

/** The backend calls and events a session uses (the bindings in the app, fakes in tests). */
export interface TerminalBackend {
  open(agent: string, methodId: string, cols: number, rows: number): Promise<SignInTerminalInfo>;
  input(terminal: string, data: string): Promise<void>;
  resize(terminal: string, cols: number, rows: number): Promise<void>;
  close(terminal: string): Promise<void>;
  onOutput(callback: (event: SignInTerminalOutput) => void): () => void;
  onExited(callback: (event: SignInTerminalExited) => void): () => void;
  onPrompt(callback: (event: SignInPrompt) => void): () => void;
}

/** Where the session's output goes (the xterm and the dialog's state). */
export interface TerminalSink {
  write(data: string): void;
  exited(code: number | null): void;
  failed(message: string): void;
  prompt(url: string, asksCode: boolean): void;
}

export type TerminalPhase = "idle" | "starting" | "running" | "exited" | "failed" | "closed";

type Held =
  | { kind: "output"; event: SignInTerminalOutput }
  | { kind: "exited"; event: SignInTerminalExited }
  | { kind: "prompt"; event: SignInPrompt };

export class TerminalSession {
  phase: TerminalPhase = "idle";
  terminal = "";
  command: string[] = [];

  #backend: TerminalBackend;
  #sink: TerminalSink;
  #held: Held[] | null = null;
  #offs: (() => void)[] = [];

  constructor(backend: TerminalBackend, sink: TerminalSink) {
    this.#backend = backend;
    this.#sink = sink;
  }

  /** Runs the method's command on a terminal of cols×rows; resolves once it runs (or failed). */
  async start(agent: string, methodId: string, cols: number, rows: number): Promise<void> {
    if (this.phase === "starting" || this.phase === "running") return;
    this.#unsubscribe();
    this.phase = "starting";
    this.terminal = "";
    this.#held = [];
    this.#offs = [
      this.#backend.onOutput((event) => this.#receive({ kind: "output", event })),
      this.#backend.onExited((event) => this.#receive({ kind: "exited", event })),
      this.#backend.onPrompt((event) => this.#receive({ kind: "prompt", event })),
    ];
    let info: SignInTerminalInfo;
    try {
      info = await this.#backend.open(agent, methodId, cols, rows);
    } catch (err) {
      this.#unsubscribe();
      this.#held = null;
      if (this.#closed()) return;
      this.phase = "failed";
      this.#sink.failed(err instanceof Error ? err.message : String(err));
      return;
    }
    if (this.#closed()) {
      // Closed while it was starting: end what was started.
      void this.#backend.close(info.terminal).catch(() => undefined);
      this.#unsubscribe();
      return;
    }
    this.terminal = info.terminal;
    this.command = info.command;
    this.phase = "running";
    const held = this.#held ?? [];
    this.#held = null;
    for (const item of held) this.#apply(item);
  }

  /** What the person typed (ignored unless the command runs). */
  input(data: string): void {
    if (this.phase === "running") void this.#backend.input(this.terminal, data).catch(() => undefined);
  }

  /** The terminal's new size (ignored unless the command runs). */
  resize(cols: number, rows: number): void {
    if (this.phase === "running") void this.#backend.resize(this.terminal, cols, rows).catch(() => undefined);
  }

  /** Ends the session: the command is killed if it still runs; nothing more is written. */
  close(): void {
    if (this.phase === "running") void this.#backend.close(this.terminal).catch(() => undefined);
    this.phase = "closed";
    this.#unsubscribe();
  }

  /** Closed meanwhile (close() may run while start() awaits). */
  #closed(): boolean {
    return this.phase === "closed";
  }

  #receive(item: Held): void {
    if (this.#held) this.#held.push(item);
    else this.#apply(item);
  }

  #apply(item: Held): void {
    if (item.event.terminal !== this.terminal || this.phase !== "running") return;
    if (item.kind === "output") {
      this.#sink.write(item.event.data);
    } else if (item.kind === "prompt") {
      this.#sink.prompt(item.event.url, item.event.asksCode);
    } else {
      this.phase = "exited";
      this.#unsubscribe();
      this.#sink.exited(item.event.code);
    }
  }

  #unsubscribe(): void {
    this.#offs.forEach((off) => off());
    this.#offs = [];
  }
}
