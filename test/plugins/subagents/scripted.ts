/** The scripted model server per test, and a configuration naming providers on it, for the subagents tests. */
import { afterEach, beforeEach } from '@jest/globals';
import type { ResolvedConfig } from '../../../types/config.js';
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
