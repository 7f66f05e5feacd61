// The "working" spinners (`.spinner`, app.css) turn by a step of 45° every STEP_MS, moved from
// here rather than by a CSS animation: a CSS animation that never ends makes the compositor
// draw every frame, and beside anything else that draws (a stream, a terminal under a flood)
// the page then gets every other frame only (bench/ui_render.py, bench/terminal_stream.py).
// Eight small repaints a second cost next to nothing. With reduced motion, they stand still.

export const STEP_MS = 125;
const STEPS = 8;

interface Turnable {
  style: { transform: string };
}

/** Turns `spinners` to `step` (of STEPS in a turn). */
export function turnSpinners(spinners: Iterable<Turnable>, step: number): void {
  const angle = `rotate(${(step % STEPS) * (360 / STEPS)}deg)`;
  for (const spinner of spinners) spinner.style.transform = angle;
}

function start(): void {
  if (typeof window === "undefined" || typeof document === "undefined") return;
  const still = window.matchMedia?.("(prefers-reduced-motion: reduce)");
  // Live: kept current by the page, so a tick with no spinner shown looks at an empty list
  // instead of querying the whole document eight times a second.
  const spinners = document.getElementsByClassName("spinner") as HTMLCollectionOf<HTMLElement>;
  let step = 0;
  window.setInterval(() => {
    if (still?.matches || document.hidden || spinners.length === 0) return;
    step = (step + 1) % STEPS;
    turnSpinners(spinners, step);
  }, STEP_MS);
}

start();
