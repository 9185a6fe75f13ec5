/** A SubcommandContext (types/cli.ts) whose writers are captured, for calling a plugin's command directly. */
import type { SubcommandContext } from '../../types/cli.js';

export interface CapturedContext {
  context: SubcommandContext;
  out(): string;
  err(): string;
}

export function capturedContext(argv: readonly string[], place: { cwd?: string; homeDir?: string; env?: NodeJS.ProcessEnv } = {}): CapturedContext {
  let out = '';
  let err = '';
  const context: SubcommandContext = {
    argv,
    cwd: place.cwd ?? '/w',
    homeDir: place.homeDir ?? '/nonexistent-home',
    env: place.env ?? {},
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    bootKernel: () => Promise.reject(new Error('this test boots no kernel')),
    openRun: () => Promise.reject(new Error('this test opens no run')),
  };
  return { context, out: () => out, err: () => err };
}
