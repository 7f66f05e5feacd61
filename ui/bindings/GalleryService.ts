// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { CatalogEntry, RegistryInfo } from "./models";

/** Cancels the install of `id` under way; false when there is none. */
export function CancelInstall(id: string): Promise<boolean> {
  return call("GalleryService", "CancelInstall", id);
}

/** The native folder chooser; the folder chosen, "" when cancelled. With $SIDEKICKS_TEST_FOLDER_PATH (tests), that folder instead. */
export function ChooseFolder(): Promise<string> {
  return call("GalleryService", "ChooseFolder");
}

/** Downloads the binary agent `id` for this system, checks its sha256 and unpacks it into the data folder (`install:progress` events); also an Update. Returns when done. */
export function Install(id: string): Promise<CatalogEntry> {
  return call("GalleryService", "Install", id);
}

/** Fetches the registry again and looks for the programs on PATH again. */
export function Refresh(): Promise<RegistryInfo> {
  return call("GalleryService", "Refresh");
}

/** Where the catalog's registry entries come from (registry, cache, builtin), its date, and why the last fetch failed. */
export function RegistryInfo(): Promise<RegistryInfo> {
  return call("GalleryService", "RegistryInfo");
}
