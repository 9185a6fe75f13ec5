/**
 * MewCode's own state directories below a writable root (`allow_write: [~]`, or a root above the
 * project): MewCode writes them while a command runs (audit log, sessions, hook log, command
 * records), so they always look changed; the sweep after the command, and the one at the next
 * start after a crash, never set them aside. A settings folder the command planted beside them
 * still is.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { baselineFor, ownStateDirs, recordsDir, type CommandRecord } from '../../../plugins/sandbox-os/command-records.js';
import { gitBaseline, QUARANTINE_SUFFIX, sweepGitDirs } from '../../../plugins/sandbox-os/git-sweep.js';
import { OsCommandSandbox } from '../../../plugins/sandbox-os/service.js';
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

test('the real sandbox with allow_write above the home and the project: a command cannot write in either .mewcode, and neither is set aside after it', async () => {
  // Not under /tmp: the sandbox gives each command a private /tmp.
  const base = realpathSync(mkdtempSync(path.join(existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir(), 'mc-own-state-real-')));
  try {
    const realHome = path.join(base, 'home');
    const realProject = path.join(base, 'work', 'proj');
    for (const dir of [path.join(realHome, '.mewcode', 'sessions'), path.join(realProject, '.mewcode')]) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(realHome, '.mewcode', 'settings.yaml'), `sandbox:\n  allow_write: [${base}]\n`);
    const warnings: string[] = [];
    const sandbox = new OsCommandSandbox({ homeDir: realHome, warn: (m) => warnings.push(m), platform: 'linux' });
    const status = await sandbox.probe();
    if (!status.active && process.env.MEWCODE_REQUIRE_SANDBOX !== '1') return; // no sandbox here to test
    const script = `echo x > ${realHome}/.mewcode/planted; echo x > ${realProject}/.mewcode/planted; echo ok > ${realProject}/f`;
    const wrapped = await sandbox.wrap({ argv: ['/bin/sh', '-c', script], cwd: realProject, projectRoot: realProject, homeDir: realHome });
    if (wrapped.kind !== 'sandboxed') throw new Error(`not sandboxed: ${JSON.stringify(wrapped)}`);
    spawnSync(wrapped.launch.file, wrapped.launch.args, { encoding: 'utf8', timeout: 20_000, env: { ...process.env, ...wrapped.launch.env } });
    // MewCode's own writes while the command runs (sessions, the audit log).
    writeFileSync(path.join(realHome, '.mewcode', 'sessions', 's.jsonl'), '{}\n');
    writeFileSync(path.join(realProject, '.mewcode', 'audit.jsonl'), '{}\n');
    await wrapped.launch.release();
    expect(existsSync(path.join(realProject, 'f'))).toBe(true);
    expect(existsSync(path.join(realHome, '.mewcode', 'planted'))).toBe(false);
    expect(existsSync(path.join(realProject, '.mewcode', 'planted'))).toBe(false);
    expect(readdirSync(realHome).filter((name) => name.includes(QUARANTINE_SUFFIX))).toEqual([]);
    expect(readdirSync(realProject).filter((name) => name.includes(QUARANTINE_SUFFIX))).toEqual([]);
    expect(warnings.filter((m) => m.includes(QUARANTINE_SUFFIX))).toEqual([]);
    await sandbox.dispose();
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
