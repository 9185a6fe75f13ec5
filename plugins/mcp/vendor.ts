/**
 * The parts of @modelcontextprotocol/sdk the MCP plugin uses, as one module, imported only when a
 * server is configured (sdk-loader.ts): a run without MCP servers never loads it.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
export { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
export { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
export {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
  McpError,
  ErrorCode,
} from '@modelcontextprotocol/sdk/types.js';
