// A Claude Code plugin's parts MewCode does not support (bin/ on PATH, output styles, LSP servers,
// userConfig) are named in one problem of the plugin (shown at start and by doctor), never dropped silently.
import path from 'node:path';
import { loadBundle } from '../../../config/claude-plugins/bundle/load-bundle.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { write } from './fixture.js';

afterAll(() => removeTempDirs());

test('bin/, output-styles/, .lsp.json and the manifest\'s lspServers/outputStyles/userConfig are named; the rest loads', () => {
  const dir = temp('cp-unsupported-');
  write(path.join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'extras', userConfig: { token: { type: 'string' } } }));
  write(path.join(dir, 'commands', 'hi.md'), 'Say hi.\n');
  write(path.join(dir, 'bin', 'tool'), '#!/bin/sh\n');
  write(path.join(dir, 'output-styles', 'terse.md'), '---\nname: terse\n---\n');
  write(path.join(dir, '.lsp.json'), '{}');
  const bundle = loadBundle({ id: 'extras', root: dir, origin: 'plugin-dir' }, '/home/someone');
  expect(bundle.loaded).toBe(true);
  expect(bundle.counts.commands).toBe(1);
  const problems = bundle.problems.map((p) => p.message);
  expect(problems).toHaveLength(1);
  expect(problems[0]).toMatch(/not supported by MewCode.*not used/);
  for (const part of ['bin/', 'output-styles/', '.lsp.json', 'userConfig']) expect(problems[0]).toContain(part);
});

test('a plugin without such parts has no such problem', () => {
  const dir = temp('cp-plain-');
  write(path.join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'plain' }));
  write(path.join(dir, 'commands', 'hi.md'), 'Say hi.\n');
  expect(loadBundle({ id: 'plain', root: dir, origin: 'plugin-dir' }, '/home/someone').problems).toEqual([]);
});
