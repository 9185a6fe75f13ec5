/**
 * The Claude-shaped transcript hooks are pointed at is written beside the session's own, never
 * through a link a repository planted: then the hooks still run, with one warning naming the file.
 */
import { afterEach, expect, test } from '@jest/globals';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { say } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { settingsSetup, trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

test('a link planted at .mewcode/sessions is not followed: one warning naming the file, the hooks still run', async () => {
  const elsewhere = temp('mewcode-transcript-elsewhere-');
  const logs = temp('mewcode-transcript-logs-');
  const log = path.join(logs, 'ran.jsonl');
  const { root, home } = settingsSetup({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: `cat >> ${log}; echo >> ${log}` }] }], Stop: [{ hooks: [{ type: 'command', command: `cat >> ${log}; echo >> ${log}` }] }] });
  mkdirSync(path.join(root, '.mewcode'), { recursive: true });
  symlinkSync(elsewhere, path.join(root, '.mewcode', 'sessions'));
  const { kernel, reporter } = await bootKernel([say('one'), say('two')], [createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'first', 'default');
    await runPrompt(kernel, 'second', 'default');
  } finally {
    await kernel.shutdown();
  }
  expect(readFileSync(log, 'utf8').trim().split('\n').filter(Boolean)).toHaveLength(4);
  const warnings = reporter.warnings.filter((warning) => warning.includes('claude-transcript.jsonl'));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(path.join(root, '.mewcode', 'sessions'));
  expect(readdirSync(elsewhere)).toEqual([]);
  expect(existsSync(path.join(elsewhere, kernel.session.sessionId))).toBe(false);
}, 30_000);
