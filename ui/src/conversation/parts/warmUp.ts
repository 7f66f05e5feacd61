// One-time costs of showing messages, paid while the app is idle after it starts rather than
// by the first conversation opened: the JavaScript engine compiles marked's lexer, its regular
// expressions, the message components and the node building on first use (the first 100
// messages took 2 to 3 times as long as the next 100), the date formats load their locale data
// (≈50 ms), and highlight.js compiles each language's grammar the first time it colours it.
// Nothing made here is shown or kept (a sample message is mounted in a detached element, then
// unmounted); the steps run in idle moments only, so none delays input or a conversation.

import { mount, unmount } from "svelte";
import type { Message } from "../../../bindings";
import { buildMarkdownNodes } from "../../lib/markdown";
import { hljs } from "../../lib/markdownParse";
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

// Code that enters the usual modes of most grammars (highlight.js builds a mode's matcher the
// first time it enters it): comments, strings, numbers, functions, classes, literals.
const CODE = `# a comment
// another comment
def f(x: int = 1) -> str:
    """A docstring."""
    return f"{x}" + 'a' + "b"  # 1.5
function g(a) { return \`t\${a}\` / 2.5; }
class C(Base): pass
const x = {"key": [1, 2.5, true, null], "other": false};
fn main() -> i32 { let s = String::from("x"); 0 }
echo "$HOME" && ls -la | grep -v x
- item: value
+ added line`;

// A few passes: the engine optimizes what runs more than once.
const PASSES = 4;

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
    ...Array.from({ length: PASSES }, (_, i) => () => {
      const target = document.createElement("div"); // never in the page
      const shown = [mount(MessageView, { target, props: { message: sample("user", i), onanswer: async () => {} } }),
        mount(MessageView, { target, props: { message: sample("agent", i), continued: i > 1, onanswer: async () => {} } })];
      for (const view of shown) void unmount(view);
    }),
    ...hljs.listLanguages().map((language) => () => {
      hljs.highlight(CODE, { language, ignoreIllegals: true });
    }),
  ];
}

let started = false;

/** Runs the steps in idle moments (as many as fit in each), once per page. WebKit (macOS) has
 *  no requestIdleCallback: there, one step every 50 ms. */
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
      if (!step) return;
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
