// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

import { call } from "./runtime";
import type { MemberSession } from "./models";

/** Extension: sets a member's session mode (`session/set_mode`), opening its session first if needed; the session as it is afterwards. */
export function SetMode(id: string, agent: string, modeId: string): Promise<MemberSession> {
  return call("SessionService", "SetMode", id, agent, modeId);
}

/** Extension: sets one of a member's session options (`session/set_config_option`, or `session/set_model` for the models an agent offers the older way: the option `model` with `via` "set_model"); the session as it is afterwards. */
export function SetOption(id: string, agent: string, optionId: string, value: string | boolean): Promise<MemberSession> {
  return call("SessionService", "SetOption", id, agent, optionId, value);
}
