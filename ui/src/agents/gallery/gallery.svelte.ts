// The agent gallery's state (issue 27): whether its dialog is open, the catalog and where its
// registry came from, each install's last `install:progress`, and the npx/uvx first-start
// downloads by agent (shown in the Agents panel). The dialog, the welcome screen and the Agents
// panel share it.

import {
  AgentService,
  ChannelService,
  GalleryService,
  On,
  type AgentInfo,
  type CatalogEntry,
  type InstallProgress,
  type RegistryInfo,
} from "../../../bindings";
import { messageOf } from "../../lib/errors";
import { navigation } from "../../lib/navigation.svelte";

class Gallery {
  /** The dialog is shown while true. */
  open = $state(false);
  entries = $state<CatalogEntry[]>([]);
  info = $state<RegistryInfo | null>(null);
  loading = $state(false);
  refreshing = $state(false);
  loadError = $state("");
  /** The last progress of each install, by catalog id (kept after it ends, for its outcome). */
  installs = $state<Record<string, InstallProgress>>({});
  /** An install's refusal or failure, by catalog id, as a sentence. */
  installErrors = $state<Record<string, string>>({});
  /** npx/uvx package downloads of a first start, by configured agent, while under way. */
  downloads = $state<Record<string, InstallProgress>>({});
  #loads = 0;

  show(): void {
    this.open = true;
    void this.load();
  }

  close(): void {
    this.open = false;
  }

  /** The catalog and the registry's origin, asked again (the newest answer wins). */
  async load(): Promise<void> {
    const mine = ++this.#loads;
    this.loading = true;
    try {
      const [entries, info] = await Promise.all([AgentService.Catalog(), GalleryService.RegistryInfo()]);
      if (mine !== this.#loads) return;
      this.entries = entries;
      this.info = info;
      this.loadError = "";
    } catch (err) {
      if (mine === this.#loads) this.loadError = messageOf(err);
    } finally {
      if (mine === this.#loads) this.loading = false;
    }
  }

  /** Fetches the registry again (and looks on PATH again), then reloads the catalog. */
  async refresh(): Promise<void> {
    this.refreshing = true;
    try {
      this.info = await GalleryService.Refresh();
      await this.load();
    } catch (err) {
      this.loadError = messageOf(err);
    } finally {
      this.refreshing = false;
    }
  }

  /** Installs (or updates) binary entry `id`; resolves to whether it is installed now. */
  async install(id: string): Promise<boolean> {
    this.installErrors = { ...this.installErrors, [id]: "" };
    this.installs = { ...this.installs, [id]: { id, agent: "", phase: "download", done: 0, total: 0, error: "" } };
    try {
      const installed = await GalleryService.Install(id);
      this.entries = this.entries.map((entry) => (entry.id === id ? installed : entry));
      return true;
    } catch (err) {
      // A cancel is said by its progress event ("cancelled"), not as an error.
      if (this.installs[id]?.phase !== "cancelled") {
        this.installErrors = { ...this.installErrors, [id]: messageOf(err) };
      }
      return false;
    }
  }

  async cancel(id: string): Promise<void> {
    try {
      await GalleryService.CancelInstall(id);
    } catch (err) {
      this.installErrors = { ...this.installErrors, [id]: messageOf(err) };
    }
  }

  /** Writes entry `id` into the configuration as a new agent; the catalog then says "Added". */
  async add(id: string, name: string, cwd: string): Promise<AgentInfo> {
    const agent = await AgentService.Add(id, name, cwd);
    void this.load();
    return agent;
  }

  /** Closes the gallery and opens the direct conversation with agent `name` (as Welcome's "Talk
   *  to" does: conversation/ imports agents/, so its openDirect is not imported here). */
  async talkTo(name: string): Promise<void> {
    const channel = await ChannelService.Direct(name);
    this.close();
    await navigation.go({ kind: "channel", id: channel.id });
  }

  #onProgress(progress: InstallProgress): void {
    if (progress.agent) {
      const { [progress.agent]: _ended, ...others } = this.downloads;
      const going = ["download", "verify", "unpack"].includes(progress.phase);
      this.downloads = going ? { ...others, [progress.agent]: progress } : others;
      return;
    }
    this.installs = { ...this.installs, [progress.id]: progress };
    if (progress.phase === "failed" && progress.error) {
      this.installErrors = { ...this.installErrors, [progress.id]: progress.error };
    }
  }

  /** Follows `install:progress` for the page's life; returns the unsubscribe. */
  follow(): () => void {
    const offs = [
      On("install:progress", (progress) => this.#onProgress(progress)),
      On("config:changed", () => {
        if (this.open) void this.load(); // "Added" follows the file, whoever edited it
      }),
    ];
    return () => offs.forEach((off) => off());
  }
}

export const gallery = new Gallery();
