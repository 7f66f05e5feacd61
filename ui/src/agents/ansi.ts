/** Terminal colours in agents' log lines, as spans with class names (never HTML from the agent).
 *
 * Only SGR (ESC [ … m) is read: the 16 colours (foreground and background, 256-colour indexes
 * below 16 too), bold, dim, italic, underline. Every other sequence (cursor moves, OSC titles
 * and hyperlinks, charset choices) and every control character but tab is dropped. */

export interface Span {
  text: string;
  /** Space-separated class names (`ansi-fg-1`, `ansi-bold`…), empty for plain text. */
  classes: string;
}

interface Style {
  fg: number | null;
  bg: number | null;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
}

const PLAIN: Style = { fg: null, bg: null, bold: false, dim: false, italic: false, underline: false };

// A CSI sequence (ESC [ or 8-bit 0x9b, possibly cut at the end), an OSC/DCS/PM/APC/SOS string
// up to BEL or ST (or the end), any other ESC sequence, or a control character other than tab.
const SEQUENCE = /(?:\x1b\[|\x9b)([0-?]*)([ -/]*)([@-~]|$)|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c|$)|\x1b[ -/]*[0-~]?|[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;

function classesOf(style: Style): string {
  const names: string[] = [];
  if (style.fg !== null) names.push(`ansi-fg-${style.fg}`);
  if (style.bg !== null) names.push(`ansi-bg-${style.bg}`);
  if (style.bold) names.push("ansi-bold");
  if (style.dim) names.push("ansi-dim");
  if (style.italic) names.push("ansi-italic");
  if (style.underline) names.push("ansi-underline");
  return names.join(" ");
}

/** `style` after the SGR parameters `params` (e.g. "1;31"); an empty list resets. */
function applySgr(style: Style, params: string): Style {
  const codes = params === "" ? [0] : params.split(/[;:]/).map((p) => (p === "" ? 0 : Number(p)));
  let next = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i] ?? 0;
    if (code === 0) next = { ...PLAIN };
    else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 3) next.italic = true;
    else if (code === 4) next.underline = true;
    else if (code === 22) next = { ...next, bold: false, dim: false };
    else if (code === 23) next.italic = false;
    else if (code === 24) next.underline = false;
    else if (code >= 30 && code <= 37) next.fg = code - 30;
    else if (code >= 90 && code <= 97) next.fg = code - 90 + 8;
    else if (code === 39) next.fg = null;
    else if (code >= 40 && code <= 47) next.bg = code - 40;
    else if (code >= 100 && code <= 107) next.bg = code - 100 + 8;
    else if (code === 49) next.bg = null;
    else if (code === 38 || code === 48) {
      // 38;5;n (256 colours: only the first 16 have a class) or 38;2;r;g;b (true colour: ignored).
      const mode = codes[i + 1];
      const index = mode === 5 ? codes[i + 2] : null;
      if (index !== null && index !== undefined && index < 16) {
        if (code === 38) next.fg = index;
        else next.bg = index;
      }
      i += mode === 5 ? 2 : mode === 2 ? 4 : 1;
    }
  }
  return next;
}

/** One log line as styled spans; adjacent text with the same style is one span. */
export function ansiSpans(line: string): Span[] {
  const spans: Span[] = [];
  let style = PLAIN;
  let last = 0;
  const push = (text: string): void => {
    if (!text) return;
    const classes = classesOf(style);
    const previous = spans[spans.length - 1];
    if (previous && previous.classes === classes) previous.text += text;
    else spans.push({ text, classes });
  };
  for (const match of line.matchAll(SEQUENCE)) {
    push(line.slice(last, match.index));
    last = match.index + match[0].length;
    const [, params, intermediates, final] = match;
    if (final === "m" && params !== undefined && intermediates === "" && /^[\d;:]*$/.test(params)) {
      style = applySgr(style, params);
    }
  }
  push(line.slice(last));
  return spans;
}
