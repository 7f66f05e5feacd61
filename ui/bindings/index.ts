// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

export * as AgentService from "./AgentService";
export * as ConfigService from "./ConfigService";
export * as ChannelService from "./ChannelService";
export * from "./events";
export type * from "./models";
export { On, call, ready } from "./runtime";
