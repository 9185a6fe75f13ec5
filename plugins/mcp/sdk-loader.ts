/** Loads the MCP SDK once, on the first server connect (see vendor.ts). */
import { importVendor } from '../../sdk/vendor-module.js';

export type McpSdk = typeof import('./vendor.js');

let sdkPromise: Promise<McpSdk> | undefined;

export function loadMcpSdk(): Promise<McpSdk> {
  sdkPromise ??= importVendor<McpSdk>('mcp-sdk', () => import('./vendor.js')).catch((error: unknown) => {
    sdkPromise = undefined;
    throw new Error(`could not load @modelcontextprotocol/sdk: ${(error as Error).message}`);
  });
  return sdkPromise;
}
