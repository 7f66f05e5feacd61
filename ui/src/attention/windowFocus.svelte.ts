// Whether the person is looking at the window: it has the focus and the page is visible. Blur,
// focus and visibilitychange say so as they happen (document.hasFocus() is read only to start,
// and when the page becomes visible again).

export function lookingNow(): boolean {
  return document.visibilityState === "visible" && document.hasFocus();
}

class WindowFocus {
  focused = $state(false);

  follow(): () => void {
    this.focused = lookingNow();
    const onFocus = (): void => {
      this.focused = document.visibilityState === "visible";
    };
    const onBlur = (): void => {
      this.focused = false;
    };
    const onVisibility = (): void => {
      this.focused = lookingNow();
    };
    window.addEventListener("focus", onFocus);
    window.addEventListener("blur", onBlur);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.removeEventListener("focus", onFocus);
      window.removeEventListener("blur", onBlur);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }
}

export const windowFocus = new WindowFocus();
