// "Still working?": what the turn line says about an agent that has sent nothing for a while.
// Waiting for the person (a permission request) or for another channel is not silence.

/** From then on, say when the agent was last heard. */
export const SILENT_NOTE_MS = 10_000;
/** From then on, say it may be stuck (Stop is right beside the line). */
export const SILENT_WARN_MS = 60_000;

export type Silence = { kind: "none" } | { kind: "note" | "stuck"; seconds: number };

export function silence(silentMs: number, waitingForPerson: boolean, elsewhere: boolean): Silence {
  if (waitingForPerson || elsewhere || silentMs < SILENT_NOTE_MS) return { kind: "none" };
  const seconds = Math.floor(silentMs / 1000);
  return { kind: silentMs >= SILENT_WARN_MS ? "stuck" : "note", seconds };
}
