// Where the configuration's path came from (ConfigInfo.source), in words.

import { t } from "./i18n.svelte";

export function sourceLabel(source: string): string {
  switch (source) {
    case "flag":
      return t("given with --config");
    case "env":
      return t("from SIDEKICKS_CONFIG");
    case "recent":
      return t("opened from the app");
    case "default":
      return t("default file");
    default:
      return source;
  }
}
