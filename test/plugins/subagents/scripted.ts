/** The scripted model server per test, and a configuration naming providers on it, for the subagents tests. */
import { afterEach, beforeEach } from '@jest/globals';
import type { ResolvedConfig } from '../../../types/config.js';
import type { Tool } from '../../../types/tools.js';
import { abortableDelay } from '../../support/test-tools.js';
import { startScriptedServer, type ScriptedServer } from '../../scripted-server/index.js';
import { removeTempDirs } from '../../support/temp-dirs.js';

/** A fresh server for every test (closed after it, with the temp dirs); read it through the getter. */
export function scriptedServerPerTest(): () => ScriptedServer {
  let server: ScriptedServer | undefined;
  beforeEach(async () => {
    server = await startScriptedServer();
  });
  afterEach(async () => {
    await server?.close();
    removeTempDirs();
  });
  return () => server!;
}

/** A configuration whose only sections are `provider` and `providers`. */
export function providersConfig(active: string, providers: readonly Record<string, unknown>[]): ResolvedConfig {
  const sections: Record<string, unknown> = { provider: active, providers };
  return { layers: [], warnings: [], section: (key) => sections[key], locate: (p) => `/p/.mewcode.yaml:${p.length}:1` };
}

/** Wait (up to 2 s) until `check` holds. */
export async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** An MCP-named tool (background agents get MCP tools) that says it was entered, then waits until its call is cancelled. */
export function waitingTool(entered: { resolve(): void }): Tool {
  return {
    name: 'mcp__slow__wait',
    description: 'Waits a long time.',
    inputSchema: { type: 'object' },
    readOnly: true,
    async execute(_input, context) {
      entered.resolve();
      await abortableDelay(60_000, context.signal);
      return { content: 'never' };
    },
  };
}
