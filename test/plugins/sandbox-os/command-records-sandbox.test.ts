/**
 * The records of commands in flight (command-records.ts), through the real sandbox: each command
 * is recorded on the host while it runs and the record is gone once its sweep is done, and a
 * sandboxed command can neither see, create, change nor delete a record — from the first command
 * on (the directory is made before its mounts are planned), and with the home as the project.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { processToken, recordsDir } from '../../../plugins/sandbox-os/command-records.js';
import { OsCommandSandbox } from '../../../plugins/sandbox-os/service.js';
import { BashTool } from '../../../plugins/tool-bash/bash-tool.js';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';
import type { AgentSession } from '../../../types/session.js';
import type { ToolOutput } from '../../../types/tools.js';
import { noLateOutput } from '../../support/tool-context.js';
import { sandboxFixture, type SandboxFixture } from './fixture.js';

const text = (output: ToolOutput): string => (typeof output.content === 'string' ? output.content : JSON.stringify(output.content));

/** Shell text trying every way to reach the records directory; prints what it saw (`LISTED: ` then the directory's entries). */
const ATTEMPTS = (dir: string, victim: string): string =>
  [
    `echo "LISTED: $(ls -A ${dir} 2>&1 | tr '\\n' ' ')"`,
    `cat ${dir}/${victim} 2>&1 | head -c 200; echo`,
    `rm -f ${dir}/${victim} 2>&1`,
    `mv ${dir}/${victim} ${dir}/moved.json 2>&1`,
    `echo '{}' > ${dir}/${victim} 2>&1`,
    `touch ${dir}/1.b0-1.1.json 2>&1`,
    `mkdir -p ${dir}/x 2>&1`,
    `rm -rf ${dir} 2>&1`,
    'true',
  ].join('; ');

/** A record of another MewCode still running (this test process): the one a command would want to delete or forge. */
async function victimRecord(home: string): Promise<{ dir: string; name: string; body: string }> {
  const dir = recordsDir(home);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = `${process.pid}.${(await processToken(process.pid))!}.99.json`;
  const body = JSON.stringify({ version: 1, created: Date.now(), since: Date.now(), projectRoot: '/nowhere', roots: [], baseline: [] });
  writeFileSync(path.join(dir, name), body);
  return { dir, name, body };
}

let fx: SandboxFixture;
beforeEach(async () => {
  fx = await sandboxFixture();
});

test('the first command: recorded on the host while it runs, the record removed after its sweep', async () => {
  if (!fx.status.active) return;
  const dir = recordsDir(fx.home);
  expect(existsSync(dir)).toBe(false);
  const seen = new Set<string>();
  const running = fx.run('sleep 1.5');
  const poll = setInterval(() => {
    try {
      for (const name of readdirSync(dir)) seen.add(name);
    } catch {
      // not made yet
    }
  }, 20);
  try {
    await running;
  } finally {
    clearInterval(poll);
  }
  const token = await processToken(process.pid);
  expect([...seen].filter((name) => name.endsWith('.json'))).toEqual([`${process.pid}.${token}.1.json`]);
  expect(readdirSync(dir)).toEqual([]);
}, 30_000);

test('a sandboxed command cannot see, create, change or delete a record, from the first command on', async () => {
  if (!fx.status.active) return;
  const dir = recordsDir(fx.home);
  // The first command: the directory is made for it (its own record is there while it runs).
  const first = text(await fx.run(ATTEMPTS(dir, 'x.json')));
  expect(first).toMatch(/^LISTED: *$/m);
  expect(readdirSync(dir)).toEqual([]);
  // A record of another MewCode, running: not to be deleted, moved or overwritten.
  const { name, body } = await victimRecord(fx.home);
  const output = text(await fx.run(ATTEMPTS(dir, name)));
  expect(output).toMatch(/^LISTED: *$/m);
  expect(output).not.toContain('projectRoot');
  expect(readFileSync(path.join(dir, name), 'utf8')).toBe(body);
  // Only the victim is left: nothing forged, moved or made, and the command's own record is gone.
  expect(readdirSync(dir)).toEqual([name]);
}, 30_000);

test('with the home as the project (every dotfile read-only), a command cannot reach a record either', async () => {
  if (!fx.status.active) return;
  const { home } = fx;
  const { dir, name, body } = await victimRecord(home);
  const sandbox = new OsCommandSandbox({ homeDir: home, warn: () => undefined });
  await sandbox.start();
  const tool = new BashTool(createOutputLimits(path.join(fx.root, '.mewcode', 'tool-output')), { sandbox: () => sandbox, sourceEnv: () => ({ ...process.env, HOME: home }) });
  try {
    const output = text(
      await tool.execute(
        { command: ATTEMPTS(dir, name), timeout: 20_000 },
        { signal: new AbortController().signal, projectRoot: home, homeDir: home, sessionId: 'records', agentId: 'main', session: undefined as unknown as AgentSession, toolCallId: 'call_rec_1', lateOutput: noLateOutput },
      ),
    );
    expect(output).toMatch(/^LISTED: *$/m);
    expect(output).not.toContain('projectRoot');
    expect(readFileSync(path.join(dir, name), 'utf8')).toBe(body);
    expect(readdirSync(dir)).toEqual([name]);
  } finally {
    await sandbox.dispose();
  }
}, 30_000);
