// Links to a message: `sidekicks://message/<channelId>/<messageId>` (Copy link puts one on the
// clipboard). Rendered in any message, such a link opens the conversation at that message when
// clicked (conversation/message-actions/linkClicks.ts); nothing else in `sidekicks:` is a link
// (markdown.ts drops it), and this one only moves the app to one of its own conversations,
// whoever wrote it.

/** Ids as the app makes them (app/core/ids.py): 26 characters of Crockford's base32. */
const ID = "[0-9A-HJKMNP-TV-Z]{26}";
const EXACT = new RegExp(`^sidekicks://message/(${ID})/(${ID})$`);
const IN_TEXT = new RegExp(`sidekicks://message/${ID}/${ID}(?![0-9A-Za-z/])`, "g");

export interface MessageTarget {
  channel: string;
  message: string;
}

export function messageLink(channel: string, message: string): string {
  return `sidekicks://message/${channel}/${message}`;
}

/** The message a link leads to, when it is exactly a message link (null otherwise). */
export function parseMessageLink(href: string | null | undefined): MessageTarget | null {
  const match = EXACT.exec(href ?? "");
  return match ? { channel: match[1] as string, message: match[2] as string } : null;
}

/** `text` cut into plain pieces and the message links written in it, in order. */
export function splitMessageLinks(text: string): (string | { link: string })[] {
  const pieces: (string | { link: string })[] = [];
  let last = 0;
  for (const found of text.matchAll(IN_TEXT)) {
    const at = found.index ?? 0;
    if (at > last) pieces.push(text.slice(last, at));
    pieces.push({ link: found[0] });
    last = at + found[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

/**
 * Message links written as plain text in rendered (sanitized) Markdown become links: the person
 * pastes one in a message, and Markdown has no autolink for this scheme. Made with DOM calls
 * (nothing parsed); text in code, or already in a link, stays as it is.
 */
export function linkMessageLinks(root: DocumentFragment | Element): void {
  if (!(root.textContent ?? "").includes("sidekicks://message/")) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node as Text;
    if (text.data.includes("sidekicks://message/") && !text.parentElement?.closest("a, code, pre")) found.push(text);
  }
  for (const text of found) {
    const pieces = splitMessageLinks(text.data);
    if (pieces.length === 1 && typeof pieces[0] === "string") continue;
    text.replaceWith(
      ...pieces.map((piece) => {
        if (typeof piece === "string") return document.createTextNode(piece);
        const a = document.createElement("a");
        a.href = piece.link;
        a.textContent = piece.link;
        return a;
      }),
    );
  }
}
