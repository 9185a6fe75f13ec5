/** Loads the MCP SDK once, on the first server connect (see vendor.ts). */

export type McpSdk = typeof import('./vendor.js');

let sdkPromise: Promise<McpSdk> | undefined;

export function loadMcpSdk(): Promise<McpSdk> {
  sdkPromise ??= import('./vendor.js').catch((error: unknown) => {
    sdkPromise = undefined;
    throw new Error(`could not load @modelcontextprotocol/sdk: ${(error as Error).message}`);
  });
  return sdkPromise;
}
