/**
 * Whether a command would run project code changed since a moment (config/trust-code.ts
 * `commandCodeChangedSince`): what the hooks and MCP plugins ask before running a trusted
 * project's code on the host, once sandboxed commands may have written it.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commandCodeChangedSince } from '../../config/trust-code.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-code-changed-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function put(rel: string, text: string): string {
  const file = path.join(root, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
/** A moment after the files were made (change times are whole clock ticks). */
const later = async (): Promise<number> => {
  await new Promise((resolve) => setTimeout(resolve, 30));
  const at = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 30));
  return at;
};

it.each([
  ['the exec form: a script among the args', { command: 'node', args: ['${CLAUDE_PROJECT_DIR}/scripts/fmt.cjs'] }, { 'scripts/fmt.cjs': '1;\n' }, 'scripts/fmt.cjs'],
  ["`npm run`: package.json's scripts", { command: 'npm run -s fmt' }, { 'package.json': '{"scripts":{"fmt":"true"}}' }, 'package.json'],
  ["`npm run`: the file a script runs", { command: 'npm run -s fmt' }, { 'package.json': '{"scripts":{"fmt":"node tools/fmt.mjs"}}', 'tools/fmt.mjs': '1;\n' }, 'tools/fmt.mjs'],
  ['`make`: the Makefile', { command: 'make -s fmt' }, { Makefile: 'fmt:\n\t@true\n' }, 'Makefile'],
  ['`sh` running a script with no extension', { command: 'sh scripts/fmt' }, { 'scripts/fmt': 'true\n' }, 'scripts/fmt'],
  ['`python -m` a module of the project', { command: 'python3 -m json.tool --help' }, { 'json/__init__.py': '', 'json/tool.py': 'x = 1\n' }, 'json/tool.py'],
  ['a program planted in node_modules/.bin (found again at each call)', { command: 'npx --no-install prettier --version' }, {}, 'node_modules/prettier/p.js'],
  ['what a script imports', { command: 'node scripts/fmt.mjs' }, { 'scripts/fmt.mjs': "import './lib.mjs';\n", 'scripts/lib.mjs': '1;\n' }, 'scripts/lib.mjs'],
] as const)('%s: a change after the moment is found', async (_name, hook, files, target) => {
  for (const [rel, text] of Object.entries(files)) put(rel, text);
  const since = await later();
  expect(commandCodeChangedSince(hook, root, since)).toBeUndefined();
  if (target.startsWith('node_modules/prettier')) {
    put('node_modules/prettier/package.json', '{"name":"prettier","bin":{"prettier":"p.js"}}');
    chmodSync(put(target, '#!/usr/bin/env node\nevil();\n'), 0o755);
    mkdirSync(path.join(root, 'node_modules', '.bin'));
    symlinkSync('../prettier/p.js', path.join(root, 'node_modules', '.bin', 'prettier'));
    expect(commandCodeChangedSince(hook, root, since)).toMatch(/^node_modules\/(?:\.bin\/prettier|prettier\/)/);
    return;
  }
  put(target, 'evil();\n');
  expect(commandCodeChangedSince(hook, root, since)).toBe(target);
});

it('a data file the hook names and writes itself (a counter, a log) is not code', async () => {
  put('count', '0\n');
  const since = await later();
  put('count', '1\n');
  expect(commandCodeChangedSince({ command: 'n=$(cat count); echo $((n+1)) > count' }, root, since)).toBeUndefined();
});

it("the user's own script outside the project is read for the project code it runs (`~/.claude/hooks/fmt.sh` running npx prettier)", async () => {
  const home = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-code-changed-home-')));
  try {
    mkdirSync(path.join(home, '.claude', 'hooks'), { recursive: true });
    writeFileSync(path.join(home, '.claude', 'hooks', 'fmt.sh'), '#!/bin/sh\ncd "$CLAUDE_PROJECT_DIR" || exit 0\n[ -x node_modules/.bin/prettier ] && npx --no prettier --check .\n', { mode: 0o755 });
    const since = await later();
    const hook = { command: '~/.claude/hooks/fmt.sh' };
    expect(commandCodeChangedSince(hook, root, since, home)).toBeUndefined();
    put('node_modules/prettier/package.json', '{"name":"prettier","bin":{"prettier":"p.js"}}');
    chmodSync(put('node_modules/prettier/p.js', '#!/usr/bin/env node\nevil();\n'), 0o755);
    mkdirSync(path.join(root, 'node_modules', '.bin'));
    symlinkSync('../prettier/p.js', path.join(root, 'node_modules', '.bin', 'prettier'));
    expect(commandCodeChangedSince(hook, root, since, home)).toMatch(/^node_modules\//);
    expect(commandCodeChangedSince({ command: 'bash', args: [`${home}/.claude/hooks/fmt.sh`] }, root, since, home)).toMatch(/^node_modules\//);
    // The user's script itself changing is not project code changing.
    writeFileSync(path.join(home, '.claude', 'hooks', 'fmt.sh'), '#!/bin/sh\ntrue\n');
    expect(commandCodeChangedSince(hook, root, since, home)).toBeUndefined();
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

it('`python -m` / `-c` in the project: a module made at its root shadows the standard library (json.tool imports argparse)', async () => {
  put('README.md', 'x\n');
  const since = await later();
  for (const hook of [{ command: 'python3 -m json.tool' }, { command: 'python3', args: ['-c', 'import json'] }]) {
    expect(commandCodeChangedSince(hook, root, since)).toBeUndefined();
  }
  put('argparse.py', 'evil()\n');
  for (const hook of [{ command: 'python3 -m json.tool' }, { command: 'python3', args: ['-c', 'import json'] }]) {
    expect(commandCodeChangedSince(hook, root, since)).toBe('argparse.py');
  }
});

it("a log outside the project that the hook appends to is not the user's script: project paths in its payloads are not code it runs", async () => {
  const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-hook-log-')));
  try {
    const transcript = put('.mewcode/sessions/s1/claude-transcript.jsonl', '{}\n');
    const log = path.join(outside, 'failure.jsonl');
    writeFileSync(log, `${JSON.stringify({ transcript_path: transcript, tool_input: { file_path: path.join(root, 'src/app.js') } })}\n`);
    put('src/app.js', '1;\n');
    const since = await later();
    put('.mewcode/sessions/s1/claude-transcript.jsonl', '{}\n{}\n');
    put('src/app.js', '2;\n');
    expect(commandCodeChangedSince({ command: `cat >> ${log}; echo >> ${log}` }, root, since)).toBeUndefined();
    // The same file made a script (executable) is read for what it runs, as before.
    chmodSync(log, 0o755);
    expect(commandCodeChangedSince({ command: `${log}` }, root, since)).toBeDefined();
  } finally {
    rmSync(outside, { recursive: true, force: true });
  }
});
