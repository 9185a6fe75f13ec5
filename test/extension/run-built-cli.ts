/** Runs the built CLI against a scripted server, in `cwd` with `home` as HOME and nothing else from the environment but PATH. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { ScriptedServer } from '../scripted-server/index.js';

export const CLI = path.resolve('bin/mewcode.js');

export function runCli(cwd: string, home: string, server: ScriptedServer, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: home, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url, MEWCODE_PROVIDER: 'anthropic', MEWCODE_MODEL: 'x' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end();
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
