// Desktop notifications for what happens while the window is not focused (an answer finished, a
// permission is asked). The Notification API may be missing or denied: then nothing happens,
// quietly.
//
// Never ask for the permission inside QtWebEngine (Linux): pywebview's Qt handler of permission
// requests passes an int where PyQt6 wants an enum, and the TypeError aborts the whole app. If the
// host grants notifications itself, `permission` is "granted" and they are shown.

type Permission = "granted" | "denied" | "default";

let asked = false;

function api(): typeof Notification | null {
  return typeof Notification === "undefined" ? null : Notification;
}

/** Asks for the permission once, from a user gesture if possible; never throws. */
export function askNotificationPermission(): void {
  const N = api();
  if (!N || asked || N.permission !== "default" || insideQtWebEngine()) return;
  asked = true;
  try {
    void Promise.resolve(N.requestPermission()).catch(() => undefined);
  } catch {
    // denied or unsupported: notifications stay off
  }
}

function insideQtWebEngine(): boolean {
  return typeof navigator !== "undefined" && navigator.userAgent.includes("QtWebEngine");
}

/** True when the person is not looking at the window. */
export function windowUnfocused(): boolean {
  return typeof document !== "undefined" && !document.hasFocus();
}

/**
 * Shows `title` and `body` as a desktop notification if the window is not focused and the
 * permission is granted; clicking it brings the window back and calls `onclick`.
 */
export function notify(title: string, body: string, onclick?: () => void, tag?: string): void {
  if (!windowUnfocused()) return;
  const N = api();
  if (!N) return;
  const permission = N.permission as Permission;
  if (permission === "default") askNotificationPermission();
  if (permission !== "granted") return;
  try {
    const shown = new N(title, { body: body.slice(0, 240), tag, silent: false });
    shown.onclick = () => {
      window.focus();
      onclick?.();
      shown.close();
    };
  } catch {
    // some hosts expose the constructor but refuse to show anything
  }
}
