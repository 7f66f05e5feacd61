// One-time costs of showing messages, paid while the app is idle after it starts rather than
// by the first conversation opened: the JavaScript engine compiles marked's lexer, its regular
// expressions, the message components and the node building on first use (the first 100
// messages took 2 to 3 times as long as the next 100), the date formats load their locale data
// (≈50 ms). (highlight.js is not warmed up: code is coloured when idle, after a conversation
// shows, and colouring a sample in each of its languages cost the idle window 7.4 MB.)
// Nothing made here is shown or kept (a sample message is mounted in a detached element, then
// unmounted); the steps run in idle moments only, so none delays input or a conversation.

import { mount, unmount } from "svelte";
import type { Message } from "../../../bindings";
import { buildMarkdownNodes } from "../../lib/markdown";
import { dateTimeOf, timeOf } from "../format";
import MessageView from "../MessageView.svelte";

// Every block and inline rule the lexer has, once.
const SAMPLE = `## A heading

Some *emphasis*, **strong**, ~~deleted~~, \`code\`, a [link](https://example.com "title") and
<https://example.com>; a line
that goes on.

- a list item
- [x] a task
  1. nested, ordered

> a quote

| a | b |
|:--|--:|
| 1 | 2 |

\`\`\`python
def f(x: int) -> int:
    return x + 1  # a comment
\`\`\`

---
`;

// A few passes: the engine optimizes what runs more than once. The message views more (16
// measured quicker first opens than 4, and 40 no quicker than 16: bench results in
// docs/benchmarks.md, "Frames").
const PASSES = 4;
const MOUNTS = 16;

function sample(role: "user" | "agent", i: number): Message {
  return {
    id: `warm-up-${role}-${i}`,
    channel: "",
    createdAt: new Date().toISOString(),
    role,
    agent: role === "agent" ? "warm-up" : "",
    parts: [{ kind: "text", text: `${SAMPLE}\n${role} ${i}`, tool: null, plan: null, messageId: "", planId: "", planUri: "", removed: false, compaction: null, subagent: null }],
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

function steps(): (() => void)[] {
  const now = new Date().toISOString();
  return [
    () => void (timeOf(now) + dateTimeOf(now)),
    ...Array.from({ length: PASSES }, (_, i) => () => {
      buildMarkdownNodes(SAMPLE, i % 2 === 1).cloneNode(true);
    }),
    ...Array.from({ length: MOUNTS }, (_, i) => () => {
      const target = document.createElement("div"); // never in the page
      const shown = [mount(MessageView, { target, props: { message: sample("user", i), onanswer: async () => {} } }),
        mount(MessageView, { target, props: { message: sample("agent", i), continued: i > 1, onanswer: async () => {} } })];
      for (const view of shown) void unmount(view);
    }),
    layOut,
  ];
}

/** The first layout of messages loads their fonts (bold, italic, monospace) and fills the
 *  engine's text caches: here, once, with a sample laid out where it is never drawn (mounted,
 *  laid out and removed in one task: no frame, no test and no query of the page ever sees it). */
function layOut(): void {
  const host = document.createElement("div");
  host.setAttribute("aria-hidden", "true");
  host.inert = true;
  // On the screen (a message far from it is not laid out: content-visibility), transparent.
  host.style.cssText = "position:fixed;inset:0 auto auto 0;width:900px;opacity:0;pointer-events:none;z-index:-1";
  document.body.append(host);
  const shown = [mount(MessageView, { target: host, props: { message: sample("user", 0), onanswer: async () => {} } }),
    mount(MessageView, { target: host, props: { message: sample("agent", 0), onanswer: async () => {} } })];
  for (const text of host.querySelectorAll<HTMLElement>(".markdown")) text.replaceChildren(buildMarkdownNodes(SAMPLE));
  void host.offsetHeight;
  for (const view of shown) void unmount(view);
  host.remove();
}

let started = false;

/** Runs the steps in idle moments (as many as fit in each), once per page. WebKit (macOS) has
 *  no requestIdleCallback: there, one step every 50 ms. When all have run, the page's root says
 *  so (`data-warmed-up="true"`: bench/ui_render.py times a first conversation after it too). */
export function warmUpWhenIdle(): void {
  if (started || typeof window === "undefined") return;
  started = true;
  const idle: (run: (deadline?: IdleDeadline) => void) => void =
    typeof window.requestIdleCallback === "function"
      ? (run) => window.requestIdleCallback(run, { timeout: 2000 })
      : (run) => window.setTimeout(run, 50);
  const queue = steps();
  const next = (deadline?: IdleDeadline): void => {
    do {
      const step = queue.shift();
      if (!step) {
        document.documentElement.dataset.warmedUp = "true";
        return;
      }
      try {
        step();
      } catch {
        // a warm-up only: whatever fails here fails again, visibly, where it matters
      }
    } while (deadline && deadline.timeRemaining() > 8);
    idle(next);
  };
  idle(next);
}
