/** The programmatic API: `query()` and the types of its options and messages. */
export { query, type Query, type QueryParams } from './query.js';
export type { QueryOptions, CanUseTool, CanUseToolContext, PermissionResult, SettingSource } from './options.js';
export type { Prompt, UserMessage as PromptMessage, SdkUserMessage, UserMessageBlock } from './user-messages.js';
export type * from '../sdk/stream-json/messages.js';
