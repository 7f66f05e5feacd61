// Keyboard helpers: Ctrl on Linux/Windows, Cmd on macOS.

export const isMac = /Mac|iPhone|iPad/.test(navigator.platform);

/** True when the platform's command modifier (and only it, unless `shift`) is held. */
export function isMod(event: KeyboardEvent, shift = false): boolean {
  const mod = isMac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  return mod && !event.altKey && event.shiftKey === shift;
}

/** How a shortcut is written on this platform, e.g. "Ctrl+S" or "⌘S". */
export function shortcutLabel(key: string, shift = false): string {
  if (isMac) return `${shift ? "⇧" : ""}⌘${key}`;
  return `Ctrl+${shift ? "Shift+" : ""}${key}`;
}
