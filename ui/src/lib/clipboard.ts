// Copying text to the clipboard, from a click.
//
// Inside QtWebEngine (Linux) the async Clipboard API must not be used: it asks for a permission,
// and pywebview's Qt handler of permission requests raises a TypeError under PyQt6, which aborts
// the app. The selection + execCommand("copy") way needs no permission during a click.

function insideQtWebEngine(): boolean {
  return navigator.userAgent.includes("QtWebEngine");
}

function copyWithSelection(text: string): boolean {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.top = "0";
  area.style.opacity = "0";
  const previous = document.activeElement as HTMLElement | null;
  document.body.append(area);
  area.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  } finally {
    area.remove();
    previous?.focus({ preventScroll: true });
  }
}

export async function copyText(text: string): Promise<boolean> {
  if (insideQtWebEngine() || !navigator.clipboard) return copyWithSelection(text);
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return copyWithSelection(text);
  }
}
