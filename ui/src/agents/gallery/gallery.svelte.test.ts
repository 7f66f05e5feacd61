import { beforeEach, describe, expect, it, vi } from "vitest";
import type { CatalogEntry, InstallProgress } from "../../../bindings";

type Handler = (payload: unknown) => void;
const bus = vi.hoisted(() => ({ handlers: new Map<string, Handler[]>() }));
const service = vi.hoisted(() => ({
  Catalog: vi.fn<() => Promise<CatalogEntry[]>>(),
  RegistryInfo: vi.fn(),
  Install: vi.fn<(id: string) => Promise<CatalogEntry>>(),
  CancelInstall: vi.fn<(id: string) => Promise<boolean>>(),
}));
vi.mock("../../../bindings", () => ({
  AgentService: { Catalog: service.Catalog },
  GalleryService: {
    RegistryInfo: service.RegistryInfo,
    Install: service.Install,
    CancelInstall: service.CancelInstall,
  },
  ChannelService: {},
  On: (name: string, handler: Handler) => {
    bus.handlers.set(name, [...(bus.handlers.get(name) ?? []), handler]);
    return () => bus.handlers.set(name, (bus.handlers.get(name) ?? []).filter((h) => h !== handler));
  },
}));

const { gallery } = await import("./gallery.svelte");

function emit(name: string, payload: unknown): void {
  for (const handler of bus.handlers.get(name) ?? []) handler(payload);
}

function progress(more: Partial<InstallProgress>): InstallProgress {
  return { id: "fast", agent: "", phase: "download", done: 0, total: 0, error: "", ...more };
}

const entry: CatalogEntry = {
  id: "fast",
  name: "Fast",
  version: "2.0.0",
  description: "",
  icon: "F",
  kind: "binary",
  installed: "",
  detected: "",
  needs: ["it needs to be installed"],
  added: [],
  update: false,
  repository: "",
  license: "",
};

describe("the gallery's store", () => {
  let off: () => void = () => undefined;

  beforeEach(() => {
    off();
    gallery.installs = {};
    gallery.installErrors = {};
    gallery.downloads = {};
    gallery.entries = [entry];
    for (const fn of Object.values(service)) fn.mockReset();
    off = gallery.follow();
  });

  it("keeps each install's last progress, and an install's entry once it is done", async () => {
    let finish!: (value: CatalogEntry) => void;
    service.Install.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const done = gallery.install("fast");
    emit("install:progress", progress({ done: 10, total: 100 }));
    expect(gallery.installs.fast).toMatchObject({ phase: "download", done: 10, total: 100 });
    finish({ ...entry, installed: "2.0.0", needs: [] });
    expect(await done).toBe(true);
    expect(gallery.entries[0]?.installed).toBe("2.0.0");
  });

  it("says a failure in the backend's words, and a cancel as cancelled, not as an error", async () => {
    service.Install.mockRejectedValueOnce(new Error("the archive's sha256 does not match"));
    expect(await gallery.install("fast")).toBe(false);
    expect(gallery.installErrors.fast).toBe("The archive's sha256 does not match"); // as a sentence

    service.Install.mockImplementationOnce(() => {
      emit("install:progress", progress({ phase: "cancelled" }));
      return Promise.reject(new Error("cancelled"));
    });
    expect(await gallery.install("fast")).toBe(false);
    expect(gallery.installErrors.fast).toBe("");
    expect(gallery.installs.fast?.phase).toBe("cancelled");
  });

  it("follows a first start's package download by agent until it ends", () => {
    emit("install:progress", progress({ id: "claude-acp", agent: "claude", done: 5 }));
    expect(gallery.downloads.claude).toMatchObject({ done: 5 });
    expect(gallery.installs["claude-acp"]).toBeUndefined(); // not the gallery's install
    emit("install:progress", progress({ id: "claude-acp", agent: "claude", phase: "done" }));
    expect(gallery.downloads.claude).toBeUndefined();
  });
});
