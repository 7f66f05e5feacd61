// The sign-in terminal's colours, from the app's CSS custom properties (app.css for the window's
// colours, SignInTerminal.svelte for the 16 terminal colours of each theme), so that xterm
// follows the light and the dark theme like the rest of the window.

import type { ITheme } from "@xterm/xterm";

/** The 16 colours' names, in xterm's order (ANSI 0–15). */
export const ANSI_NAMES = [
  "black",
  "red",
  "green",
  "yellow",
  "blue",
  "magenta",
  "cyan",
  "white",
  "brightBlack",
  "brightRed",
  "brightGreen",
  "brightYellow",
  "brightBlue",
  "brightMagenta",
  "brightCyan",
  "brightWhite",
] as const;

/** xterm's theme from `read(name)`, the value of a custom property ("" when unset: xterm's
 *  own colour is kept). */
export function terminalTheme(read: (property: string) => string): ITheme {
  const theme: Record<string, string> = {};
  const set = (key: string, property: string): void => {
    const value = read(property).trim();
    if (value) theme[key] = value;
  };
  set("background", "--log-bg");
  set("foreground", "--text");
  set("cursor", "--accent");
  set("cursorAccent", "--log-bg");
  set("selectionBackground", "--selection");
  ANSI_NAMES.forEach((name, i) => set(name, `--term-ansi-${i}`));
  return theme as ITheme;
}
