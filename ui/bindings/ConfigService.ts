// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { ConfigInfo, Preferences, Problem } from "./models";

/** Shows the native file chooser and opens the chosen file; "" when cancelled. */
export function Choose(): Promise<string> {
  return call("ConfigService", "Choose");
}

/** The configuration file's text. */
export function Content(): Promise<string> {
  return call("ConfigService", "Content");
}

/** The configuration in force: its file, where it came from, and whether it is valid. */
export function Current(): Promise<ConfigInfo> {
  return call("ConfigService", "Current");
}

/** Stops the answers and agents, then loads and watches `path` with its own history. */
export function Open(path: string): Promise<ConfigInfo> {
  return call("ConfigService", "Open", path);
}

/** The Preferences form's settings: theme, language, notifications, limits. */
export function Preferences(): Promise<Preferences> {
  return call("ConfigService", "Preferences");
}

/** Configuration files opened from the app, most recent first (8 at most), with the file the app started on. */
export function Recent(): Promise<string[]> {
  return call("ConfigService", "Recent");
}

/** Writes `text` if it has no problem; returns its problems and warnings either way. */
export function Save(text: string): Promise<Problem[]> {
  return call("ConfigService", "Save", text);
}

/** The configuration's JSON Schema. */
export function Schema(): Promise<Record<string, unknown>> {
  return call("ConfigService", "Schema");
}

/** Writes the changed settings into the YAML (comments and order kept), validated and reloaded like a Save: with a problem, nothing is written and the problems are returned. */
export function SetPreferences(prefs: Preferences): Promise<Problem[]> {
  return call("ConfigService", "SetPreferences", prefs);
}

/** Problems and warnings of `text`, without saving. */
export function Validate(text: string): Promise<Problem[]> {
  return call("ConfigService", "Validate", text);
}
