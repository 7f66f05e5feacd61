// Which keys the person is holding down, so that a control can ignore a key press that began
// before it had the focus (a held or auto-repeating Enter from the composer must never answer a
// permission prompt that appeared, or was focused, meanwhile).

/** The keys held down now, as KeyboardEvent.code values (physical keys, whatever the layout
 * or modifiers make them type), kept from window events. */
export class HeldKeys {
  readonly #held = new Set<string>();

  down(event: Pick<KeyboardEvent, "code">): void {
    this.#held.add(event.code);
  }

  up(event: Pick<KeyboardEvent, "code">): void {
    this.#held.delete(event.code);
  }

  /** The window lost the focus: keyups will not come, nothing counts as held any more. */
  clear(): void {
    this.#held.clear();
  }

  /** The keys held at this moment (a copy: it does not change with later presses). */
  snapshot(): Set<string> {
    return new Set(this.#held);
  }
}

/**
 * A key press that a control must ignore: an auto-repeat, or a press of a key already held when
 * the control got the focus (`heldAtFocus`, emptied of each key as it is released).
 */
export function pressBeganEarlier(
  event: Pick<KeyboardEvent, "code" | "repeat">,
  heldAtFocus: ReadonlySet<string>,
): boolean {
  return event.repeat || heldAtFocus.has(event.code);
}

export const heldKeys = new HeldKeys();

if (typeof window !== "undefined") {
  // Capture phase: seen before any handler can stop the event.
  window.addEventListener("keydown", (e) => heldKeys.down(e), { capture: true });
  window.addEventListener("keyup", (e) => heldKeys.up(e), { capture: true });
  window.addEventListener("blur", () => heldKeys.clear());
}
