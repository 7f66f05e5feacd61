// Code blocks in rendered Markdown: colours (lib/markdown highlightCode) and a copy button (made
// here, never from the agent's HTML), added when the block comes near the screen (most of a
// long conversation never does).

import { i18n, t } from "../../lib/i18n.svelte";
import { highlightCode } from "../../lib/markdown";
import { copyText } from "../../lib/clipboard";
import { whenNearScreen } from "./nearScreen";

/** Decorates each code block of `node` once it is near the screen (in the next idle moment:
 *  a conversation opening shows its messages first, then their colours); the result cancels
 *  the rest. */
export function decorateWhenSeen(node: HTMLElement): () => void {
  const cancels: (() => void)[] = [];
  for (const block of node.querySelectorAll<HTMLElement>(".code-block")) {
    if (block.querySelector(":scope > .copy-code")) continue;
    cancels.push(whenNearScreen(block, () => decorateWhenIdle(block)));
  }
  return () => {
    for (const cancel of cancels) cancel();
  };
}

const toDecorate: HTMLElement[] = [];

function decorateWhenIdle(block: HTMLElement): void {
  toDecorate.push(block);
  if (toDecorate.length === 1) whenIdle(decorateSome);
}

function decorateSome(deadline?: IdleDeadline): void {
  do {
    const block = toDecorate.shift();
    if (!block) return;
    decorate(block);
  } while (deadline && deadline.timeRemaining() > 4);
  if (toDecorate.length) whenIdle(decorateSome);
}

/** requestIdleCallback (within 300 ms at most), or a timer where there is none (WebKit). */
function whenIdle(run: (deadline?: IdleDeadline) => void): void {
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(run, { timeout: 300 });
  else window.setTimeout(run, 16);
}

function decorate(block: HTMLElement): void {
  if (!block.isConnected || block.querySelector(":scope > .copy-code")) return;
  const code = block.querySelector<HTMLElement>("code[data-lang]:not([data-highlighted])");
  if (code) highlightCode(code);
  const button = document.createElement("button");
  button.type = "button";
  button.className = "copy-code";
  button.textContent = t("Copy");
  button.title = t("Copy the code");
  button.addEventListener("click", () => void copy(button));
  block.prepend(button);
}

async function copy(button: HTMLButtonElement): Promise<void> {
  const code = button.parentElement?.querySelector("pre code")?.textContent ?? "";
  const done = await copyText(code);
  button.textContent = done ? t("Copied") : t("Copy failed");
  button.toggleAttribute("data-copied", done);
  setTimeout(() => {
    button.textContent = t("Copy");
    button.removeAttribute("data-copied");
  }, 1500);
}

let following = false;

/** The copy buttons already made speak the current language: one effect for the whole page
 *  (not one per message, which each conversation's 100 messages paid for when they opened). */
export function copyButtonsFollowLanguage(): void {
  if (following || typeof document === "undefined") return;
  following = true;
  $effect.root(() => {
    $effect(() => {
      void i18n.language;
      for (const button of document.querySelectorAll<HTMLButtonElement>(".markdown .copy-code")) {
        if (!button.hasAttribute("data-copied")) button.textContent = t("Copy");
        button.title = t("Copy the code");
      }
    });
  });
}
