// generated — do not edit: scripts/gen_bindings.py writes this file from app/.

export * as AgentService from "./AgentService";
export * as ConfigService from "./ConfigService";
export * as ChannelService from "./ChannelService";
export * as SessionService from "./SessionService";
export * as ChangesService from "./ChangesService";
export * as CheckpointService from "./CheckpointService";
export * as AttachmentService from "./AttachmentService";
export * as SearchService from "./SearchService";
export * as ExportService from "./ExportService";
export * as InboxService from "./InboxService";
export * as SignInService from "./SignInService";
export * as GalleryService from "./GalleryService";
export * as HandoffService from "./HandoffService";
export * as ForkService from "./ForkService";
export * as WorktreeService from "./WorktreeService";
export * from "./events";
export type * from "./models";
export { On, call, ready } from "./runtime";
