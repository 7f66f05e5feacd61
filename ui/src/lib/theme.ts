// Applies the configuration's `theme` (system | light | dark) to <html data-theme=…>, where the
// colour custom properties of app.css live. "system" follows the OS live, through matchMedia.

export type ThemeSetting = "system" | "light" | "dark";

const darkQuery = window.matchMedia("(prefers-color-scheme: dark)");
let setting: ThemeSetting = "system";

function resolved(): "light" | "dark" {
  if (setting === "system") return darkQuery.matches ? "dark" : "light";
  return setting;
}

function paint(): void {
  const root = document.documentElement;
  root.dataset.theme = resolved();
  root.dataset.themeSetting = setting;
}

/** Sets the theme; unknown values mean "system", as the backend's default does. */
export function applyTheme(value: string): void {
  setting = value === "light" || value === "dark" ? value : "system";
  paint();
}

// Registered once for the page's life: it only repaints while the setting is "system".
darkQuery.addEventListener("change", () => {
  if (setting === "system") paint();
});

paint();
