/**
 * MewCode's own state directories below a writable root (`allow_write: [~]`, or a root above the
 * project): MewCode writes them while a command runs (audit log, sessions, hook log, command
 * records), so they always look changed; the sweep after the command, and the one at the next
 * start after a crash, never set them aside. A settings folder the command planted beside them
 * still is.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baselineFor, ownStateDirs, recordsDir, type CommandRecord } from '../../../plugins/sandbox-os/command-records.js';
import { gitBaseline, QUARANTINE_SUFFIX, sweepGitDirs } from '../../../plugins/sandbox-os/git-sweep.js';
import { recoverSweeps } from '../../../plugins/sandbox-os/sweep-recovery.js';

let root: string;
let home: string;
let project: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-own-state-')));
  home = path.join(root, 'home');
  project = path.join(root, 'work', 'proj');
  for (const dir of [path.join(home, '.mewcode', 'sessions'), path.join(project, '.mewcode'), path.join(root, 'work', 'pkg')]) mkdirSync(dir, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** What MewCode itself writes during a command, and a settings folder the command plants. */
function duringCommand(): void {
  writeFileSync(path.join(home, '.mewcode', 'sessions', 's.jsonl'), '{}\n');
  writeFileSync(path.join(project, '.mewcode', 'audit.jsonl'), '{}\n');
  mkdirSync(path.join(root, 'work', 'pkg', '.vscode'));
  writeFileSync(path.join(root, 'work', 'pkg', '.vscode', 'tasks.json'), '{"tasks":[{"command":"evil","runOptions":{"runOn":"folderOpen"}}]}');
}

const setAside = (): string[] =>
  [path.join(home, '.mewcode'), path.join(project, '.mewcode'), path.join(root, 'work', 'pkg', '.vscode')].filter((dir) => existsSync(`${dir}${QUARANTINE_SUFFIX}`)).map((dir) => path.relative(root, dir));

test('after a command: the home\'s and the project\'s .mewcode stay where they are; a planted .vscode is set aside', async () => {
  const baseline = await gitBaseline([root]);
  const since = Date.now() - 50;
  duringCommand();
  const result = await sweepGitDirs([root], since, baseline, undefined, undefined, ownStateDirs(home, project));
  expect(setAside()).toEqual(['work/pkg/.vscode']);
  expect(result.quarantined.map((item) => path.relative(root, item.path))).toEqual(['work/pkg/.vscode']);
  expect(existsSync(path.join(home, '.mewcode', 'sessions', 's.jsonl'))).toBe(true);
});

test('at the next start after a crash: the same', async () => {
  const records = recordsDir(home);
  mkdirSync(records, { recursive: true });
  const baseline = await gitBaseline([root]);
  const record: CommandRecord = { version: 1, created: Date.now(), since: Date.now() - 50, projectRoot: project, roots: [root], baseline: baselineFor(baseline, [root]) };
  const child = spawn('/bin/true');
  await new Promise((resolve) => child.once('exit', resolve));
  writeFileSync(path.join(records, `${child.pid}.b0-1.1.json`), JSON.stringify(record));
  duringCommand();
  const said: string[] = [];
  await recoverSweeps(records, async (messages) => void said.push(...messages), { showNotices: true });
  expect(setAside()).toEqual(['work/pkg/.vscode']);
  expect(said.join('\n')).not.toContain('.mewcode.quarantined');
  expect(readdirSync(records)).toEqual([]);
});
