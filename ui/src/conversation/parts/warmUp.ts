// A one-time cost of showing messages, paid while the app is idle after it starts rather than
// by the first conversation opened: the JavaScript engine compiles the message components on
// their first use. A few sample messages are mounted, in idle moments, into an element that is
// never in the page, and unmounted.
//
// What is warmed up is chosen by what it buys against what the idle window then holds
// (bench/ui_render.py and bench/window.py, docs/benchmarks.md "Frames" and "Memory"): the
// components, with a one-word text, buy most of a first open's speed (37 → 31 ms for 100
// messages) for no measurable memory. Not warmed up: the Markdown lexer (its texts are built
// within a time budget per frame, so a cold lexer builds fewer of them first, it does not make
// the open slower), the fonts and text caches (no faster), the date formats (none is made for
// the times shown: conversation/clock.ts), and highlight.js (code is coloured when idle, after
// a conversation shows). The earlier warm-up of all of these cost the idle window 8.8 MB.

import { mount, unmount } from "svelte";
import type { Message } from "../../../bindings";
import MessageView from "../MessageView.svelte";
import { releaseStartUpMemory } from "../../lib/engineMemory";

// 4 mounts of each: the engine optimizes what runs more than once (measured in the bench).
const MOUNTS = 4;

function sample(role: "user" | "agent", i: number): Message {
  return {
    id: `warm-up-${role}-${i}`,
    channel: "",
    createdAt: new Date().toISOString(),
    role,
    agent: role === "agent" ? "warm-up" : "",
    parts: [{ kind: "text", text: `${role} ${i}`, tool: null, plan: null, messageId: "", planId: "", planUri: "", removed: false, compaction: null, subagent: null }],
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
  return Array.from({ length: MOUNTS }, (_, i) => () => {
    const target = document.createElement("div"); // never in the page
    const shown = [mount(MessageView, { target, props: { message: sample("user", i), onanswer: async () => {} } }),
      mount(MessageView, { target, props: { message: sample("agent", i), continued: i > 1, onanswer: async () => {} } })];
    for (const view of shown) void unmount(view);
  });
}

let started = false;

/** Runs the steps in idle moments (as many as fit in each), once per page. WebKit (macOS) has
 *  no requestIdleCallback: there, one step every 50 ms. When all have run, the engine is asked
 *  to give back the start-up's memory (lib/engineMemory.ts), and the page's root says so
 *  (`data-warmed-up="true"`: bench/ui_render.py times a first conversation after it too). */
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
        window.setTimeout(() => idle(() => releaseStartUpMemory()), 2000);
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
