// How an agent is pictured wherever it appears (sidebar, cards, messages, headers): its configured
// icon, or else the first letter of its title in a circle whose colour comes from its name, so an
// agent keeps one look everywhere and two agents without icons are told apart at a glance.

/** Hues picked to stay readable with white text in both themes. */
const HUES = [211, 262, 330, 14, 35, 145, 174, 190] as const;

export interface AgentLook {
  /** The configured icon (an emoji…), or "" when there is none. */
  icon: string;
  /** The title's first letter, upper-cased ("?" for an empty title). */
  initial: string;
  /** The circle's colour behind the initial. */
  color: string;
}

/** The look of an agent named `name`, titled `title`, with `icon` ("" or undefined for none). */
export function agentLook(name: string, title?: string, icon?: string): AgentLook {
  const letter = Array.from((title || name).trim())[0] ?? "?";
  return { icon: icon ?? "", initial: letter.toUpperCase(), color: colorOf(name) };
}

/** A colour that depends only on `name` (the same agent gets the same colour in every view). */
export function colorOf(name: string): string {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return `hsl(${HUES[hash % HUES.length]} 55% 46%)`;
}
