// Finished messages' Markdown, built bottom first within a budget: a conversation opens with 100
// messages, and building all their texts before the first frame was most of what it cost
// (bench/ui_render.py). The texts asked for in one go are built after it (in a microtask, before
// the frame is drawn), the last asked for first (the bottom of a list opening at its end, or
// the messages just above the screen when older ones come in), until FRAME_BUDGET ms are
// spent; the rest in idle moments (within NEAR_WAIT ms), those near the screen first.
// A text built before is a copy of kept nodes: quicker, so more of them fit in the budget.
//
// Until it is built, a message's text element is empty and marked `data-filling`.
//
// A text built grows its message, maybe above what the person reads, at a moment of its own
// (an idle moment comes as a task when it waited NEAR_WAIT ms): `onFilled` tells the lists at
// the end of each batch, in the same task, so that they put the view back before anything
// else reads or paints the page (MessageList's anchor).

import { whenNearScreen } from "./nearScreen";

/** Milliseconds of building per frame before the rest waits. */
export const FRAME_BUDGET = 8;
/** Milliseconds the rest waits for an idle moment at most. */
const NEAR_WAIT = 250;

interface Job {
  node: HTMLElement;
  fill: () => void;
  cancelNear: () => void;
  done: boolean;
}

let batch: Job[] = [];
const later: Job[] = [];
let idleAsked = false;
const fillingListeners = new Set<() => void>();
const filledListeners = new Set<() => void>();
let builtUntold = false; // texts built since the listeners were last told

/** Calls `listener` before each batch of texts is built (in the task that builds them): a
 *  list notes then what the person reads, where it is before the texts change it; the result
 *  stops it. */
export function onFilling(listener: () => void): () => void {
  fillingListeners.add(listener);
  return () => fillingListeners.delete(listener);
}

/** Calls `listener` after each batch of texts built (in the task that built them); the result
 *  stops it. */
export function onFilled(listener: () => void): () => void {
  filledListeners.add(listener);
  return () => filledListeners.delete(listener);
}

/** Tells the listeners, once, if texts were built since they last heard. */
function tellBuilt(): void {
  if (!builtUntold) return;
  builtUntold = false;
  for (const listener of filledListeners) listener();
}

/** Runs `fill` (which fills `node`) soon, as above; the result cancels it. */
export function fillSoon(node: HTMLElement, fill: () => void): () => void {
  const job: Job = { node, fill, cancelNear: () => {}, done: false };
  node.dataset.filling = "";
  batch.push(job);
  if (batch.length === 1) queueMicrotask(fillBatch);
  return () => {
    job.done = true;
    job.cancelNear();
  };
}

/** Builds at once the texts still waiting inside `root`: a message brought into view (opened
 *  at from search or a link) is what the person looks at, wherever it is in the list's order,
 *  and was left empty until an idle moment, which a busy page may give only after NEAR_WAIT. */
export function fillWithin(root: HTMLElement): void {
  for (const job of [...batch, ...later]) if (!job.done && root.contains(job.node)) run(job);
  tellBuilt();
}

function run(job: Job): void {
  if (job.done) return;
  if (!builtUntold) for (const listener of fillingListeners) listener(); // the batch's first
  job.done = true;
  job.cancelNear();
  delete job.node.dataset.filling;
  job.fill();
  builtUntold = true;
}

function fillBatch(): void {
  const jobs = batch;
  batch = [];
  const start = performance.now();
  let i = jobs.length - 1;
  for (; i >= 0 && performance.now() - start < FRAME_BUDGET; i--) run(jobs[i] as Job);
  tellBuilt();
  for (; i >= 0; i--) {
    const job = jobs[i] as Job;
    if (job.done) continue;
    job.cancelNear = whenNearScreen(job.node, () => sooner(job));
    later.push(job);
  }
  askIdle();
}

/** Near the screen: first in line for the next idle moment (within NEAR_WAIT ms). */
function sooner(job: Job): void {
  const at = later.indexOf(job);
  if (at > 0) {
    later.splice(at, 1);
    later.unshift(job);
  }
  askIdle();
}

function askIdle(): void {
  if (idleAsked || later.length === 0) return;
  idleAsked = true;
  const idle = (deadline?: IdleDeadline): void => {
    idleAsked = false;
    // The earliest asked for (the nearest to the screen) first.
    do {
      const job = later.shift();
      if (!job) break;
      run(job);
    } while (deadline && deadline.timeRemaining() > 4);
    tellBuilt();
    askIdle();
  };
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(idle, { timeout: NEAR_WAIT });
  else window.setTimeout(idle, 16);
}
