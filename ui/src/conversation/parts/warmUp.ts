// One-time costs of showing messages, paid while the app is idle after it starts rather than
// by the first conversation opened: the JavaScript engine compiles marked's lexer, its regular
// expressions and the sanitizing walk on first use (the first 100 messages took 2 to 3 times as
// long as the next 100), the date formats load their locale data (≈50 ms), and highlight.js
// compiles each language's grammar the first time it colours it. Nothing rendered here is kept
// or shown; each step is its own idle task, so none delays input or a conversation opening.

import { hljs, parseMarkdown } from "../../lib/markdownParse";
import { safeNodes } from "../../lib/markdownNodes";
import { dateTimeOf, timeOf } from "../format";

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

// A few passes: the engine optimizes what runs more than once.
const PASSES = 4;

function steps(): (() => void)[] {
  const now = new Date().toISOString();
  return [
    () => void (timeOf(now) + dateTimeOf(now)),
    ...Array.from({ length: PASSES }, (_, i) => () => {
      document.importNode(safeNodes(parseMarkdown(SAMPLE, i % 2 === 1)), true);
    }),
    ...hljs.listLanguages().map((language) => () => {
      hljs.highlight("x = 1", { language, ignoreIllegals: true });
    }),
  ];
}

let started = false;

/** Runs the steps one per idle moment, once per page. */
export function warmUpWhenIdle(): void {
  if (started || typeof window === "undefined") return;
  started = true;
  const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 50));
  const queue = steps();
  const next = (): void => {
    const step = queue.shift();
    if (!step) return;
    try {
      step();
    } catch {
      // a warm-up only: whatever fails here fails again, visibly, where it matters
    }
    idle(next, { timeout: 2000 });
  };
  idle(next, { timeout: 2000 });
}
