// The configuration in force (ConfigService.Current()), kept current through `config:changed`.

import { ConfigService, On, type ConfigInfo } from "../../bindings";
import { messageOf } from "./errors";

class ConfigStore {
  /** null until the first Current() answered: the page is not ready before. */
  current = $state<ConfigInfo | null>(null);
  /** Why Current() failed, for the status line; "" when it answered. */
  loadError = $state("");

  async reload(): Promise<void> {
    try {
      this.current = await ConfigService.Current();
      this.loadError = "";
    } catch (err) {
      this.loadError = messageOf(err);
    }
  }

  /** Loads once, then follows every save and reload of the file; returns the unsubscribe. */
  follow(): () => void {
    void this.reload();
    return On("config:changed", () => void this.reload());
  }
}

export const config = new ConfigStore();
