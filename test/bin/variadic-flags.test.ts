/**
 * Claude Code's variadic flags (`--mcp-config <configs...>`, `--add-dir <directories...>`,
 * `--plugin-dir <paths...>`, the rule lists): several values after one flag, and no value a flag
 * did not take ever silently becomes part of the prompt sent to the model.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HELP, parseCommandLine } from '../../bin/cli-args.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'mewcode-variadic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = (...argv: string[]) => parseCommandLine(argv, dir, {});
const INLINE = '{"mcpServers":{"inl":{"type":"http","url":"http://127.0.0.1:1/mcp","headers":{"Authorization":"Bearer SECRET"}}}}';

beforeAll(() => {
  writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ mcpServers: { fs: { command: 'npx' } } }));
  writeFileSync(path.join(dir, 'servers.conf'), JSON.stringify({ mcpServers: { c: { command: 'c' } } }));
  for (const d of ['lib', 'docs', 'p1', 'p2']) mkdirSync(path.join(dir, d));
});

describe('--mcp-config <configs...>', () => {
  it('takes files and JSON texts after one flag; the prompt before or after them stays the prompt alone', () => {
    for (const argv of [
      ['-p', 'go', '--mcp-config', 'a.json', INLINE],
      ['--mcp-config', 'a.json', INLINE, '-p', 'go'],
      ['--mcp-config', 'a.json', INLINE, 'go'],
    ]) {
      const parsed = run(...argv);
      expect(parsed).toMatchObject({ kind: 'run', options: { prompt: 'go', mcpServerOrigins: { fs: path.join(dir, 'a.json'), inl: '--mcp-config' } } });
      expect(JSON.stringify((parsed as { options: { prompt: string } }).options.prompt)).not.toMatch(/SECRET/);
    }
  });

  it('a missing .json after the first is its usual error, not the prompt; a non-.json file there is a usage error, not a guess', () => {
    expect(run('-p', 'go', '--mcp-config', 'a.json', 'missing.json')).toMatchObject({ kind: 'error', message: expect.stringMatching(/missing\.json: cannot be read/) });
    expect(run('--mcp-config', 'a.json', 'servers.conf')).toMatchObject({ kind: 'error', message: expect.stringMatching(/"servers\.conf" after --mcp-config is a file but not a \.json one/) });
  });
});

describe('--add-dir <directories...> and --plugin-dir <paths...>', () => {
  it('take several directories after one flag', () => {
    expect(run('--add-dir', 'lib', 'docs', '-p', 'hello')).toMatchObject({ kind: 'run', options: { prompt: 'hello', additionalDirectories: [path.join(dir, 'lib'), path.join(dir, 'docs')] } });
    expect(run('--plugin-dir', 'p1', './p2', '-p', 'hello')).toMatchObject({ kind: 'run', options: { prompt: 'hello', pluginDirs: [path.join(dir, 'p1'), path.join(dir, 'p2')] } });
    expect(run('--add-dir', 'lib', 'fix the docs')).toMatchObject({ kind: 'run', options: { prompt: 'fix the docs', additionalDirectories: [path.join(dir, 'lib')] } });
  });

  it('a word written as a path that is not a directory is the flag\'s error, not the prompt', () => {
    expect(run('-p', 'x', '--add-dir', 'lib', './nope')).toMatchObject({ kind: 'error', message: expect.stringMatching(/^--add-dir \.\/nope: no such directory/) });
  });
});

describe('no word a flag did not take becomes part of the prompt', () => {
  it('a word after a single-value flag once the prompt was given is an error naming the flag', () => {
    expect(run('-p', 'go', '--model', 'm', 'extra')).toMatchObject({ kind: 'error', message: expect.stringMatching(/"extra" is a second prompt after --model/) });
    expect(run('go', '--allowedTools', 'Read', 'now fix it')).toMatchObject({ kind: 'error', message: expect.stringMatching(/after --allowedTools/) });
    expect(run('-p', 'go', '--mcp-config', 'a.json', 'more words')).toMatchObject({ kind: 'error', message: expect.stringMatching(/second prompt after --mcp-config/) });
  });

  it('the prompt as one run of words before, between or after the flags is still taken', () => {
    expect(run('fix', 'the', 'bug', '--model', 'm')).toMatchObject({ kind: 'run', options: { prompt: 'fix the bug', model: 'm' } });
    expect(run('--model', 'm', '-p', 'fix', 'it')).toMatchObject({ kind: 'run', options: { prompt: 'fix it' } });
    expect(run('--allowedTools', 'Read', '--', 'Edit')).toMatchObject({ kind: 'run', options: { prompt: 'Edit', allowedTools: ['Read'] } });
  });
});

test('the help shows the variadic forms', () => {
  expect(HELP).toMatch(/--mcp-config <configs\.\.\.>/);
  expect(HELP).toMatch(/--add-dir <path\.\.\.>/);
  expect(HELP).toMatch(/--plugin-dir <path\.\.\.>/);
});
