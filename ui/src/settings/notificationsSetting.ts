// The `notifications:` setting read from and written into the configuration's YAML text, for the
// Settings toggle: the toggle edits the text in the editor (the person sees the line change and
// saves it as any edit), never the file behind their back. Only a top-level key counts.

const LINE = /^notifications:[ \t]*([^\s#]*)/m;
const ANCHORS = [/^language:.*$/m, /^theme:.*$/m];

/** Whether the text turns notifications on (the default when the key is absent). */
export function notificationsOn(text: string): boolean {
  const found = LINE.exec(text);
  return !found || found[1] !== "false";
}

/** The text with `notifications: true|false`: the existing line's value replaced (its comment
 *  kept), or a new line after `language:` (else `theme:`, else first). */
export function withNotifications(text: string, on: boolean): string {
  const value = on ? "true" : "false";
  if (LINE.test(text)) {
    return text.replace(LINE, (line, old: string) =>
      old ? line.slice(0, line.length - old.length) + value : `${line.trimEnd()} ${value}`,
    );
  }
  for (const anchor of ANCHORS) {
    const found = anchor.exec(text);
    if (found) {
      const end = found.index + found[0].length;
      return `${text.slice(0, end)}\nnotifications: ${value}${text.slice(end)}`;
    }
  }
  return `notifications: ${value}\n${text}`;
}
