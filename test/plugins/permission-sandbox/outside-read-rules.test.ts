/**
 * Claude Code's allow rules naming a path outside the project (`Read(//abs/**)`, `Read(~/…)`):
 * through the permission chain with the real rules and sandbox layers, a read_file they name goes
 * on to the rules (their deny and ask still win); writes, other rule shapes, links leading
 * elsewhere, an untrusted project's rules and the home's dotfiles (no OS sandbox service bound:
 * fail closed) stay refused by the sandbox layer. The OS sandbox's own list: read-guard.test.ts.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sandbox from '../../../plugins/permission-sandbox/index.js';
import { bootRules, decide, tempDirs, writeSettings, type Dirs } from '../permission-rules/helpers.js';
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../../types/plugin.js';
import { TOKENS } from '../../../types/tokens.js';
import type { CommandSandbox } from '../../../types/sandbox.js';

let dirs: Dirs;
let shared: string;
let elsewhere: string;
beforeEach(() => {
  dirs = tempDirs();
  shared = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mewcode-shared-')));
  elsewhere = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mewcode-elsewhere-')));
  writeFileSync(path.join(shared, 'api.md'), 'doc');
  writeFileSync(path.join(elsewhere, 'secret.txt'), 'x');
  symlinkSync(path.join(elsewhere, 'secret.txt'), path.join(shared, 'link.md'));
  mkdirSync(path.join(dirs.home, 'notes'));
  writeFileSync(path.join(dirs.home, 'notes', 'todo.md'), 'todo');
});
afterEach(() => {
  dirs.cleanup();
  rmSync(shared, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

const read = (kernel: Parameters<typeof decide>[0], file: string) => decide(kernel, 'read_file', { file_path: file });
const layerOf = async (verdict: ReturnType<typeof decide>): Promise<string> => {
  const v = await verdict;
  return v === undefined ? 'none' : `${v.layer.split(':')[0]}:${v.decision}`;
};

test("the user's Read(//abs/**) and Read(~/…) allow a read_file there; the rules layer decides it", async () => {
  writeSettings(dirs, 'user', { allow: [`Read(/${shared}/**)`, 'Read(~/notes/**)'] });
  const { kernel } = await bootRules(dirs, { plugins: [sandbox] });
  expect(await layerOf(read(kernel, path.join(shared, 'api.md')))).toBe('permission-rules:allow');
  expect(await layerOf(read(kernel, '~/notes/todo.md'))).toBe('permission-rules:allow');
  // A link inside the allowed folder leading elsewhere: the rule covers the link, not its target.
  const link = await read(kernel, path.join(shared, 'link.md'));
  expect(link).toMatchObject({ decision: 'deny', layer: 'permission-sandbox' });
  expect(link!.reason).toContain(`resolves to ${path.join(elsewhere, 'secret.txt')}`);
  // Writes are never opened by a read rule; nor are other folders.
  expect(await layerOf(decide(kernel, 'write_file', { file_path: path.join(shared, 'new.md') }))).toBe('permission-sandbox:deny');
  expect(await layerOf(read(kernel, path.join(elsewhere, 'secret.txt')))).toBe('permission-sandbox:deny');
});

test('a deny or ask rule of any layer still wins over the allow rule outside the project', async () => {
  writeSettings(dirs, 'user', { allow: [`Read(/${shared}/**)`], deny: [`Read(/${shared}/api.md)`] });
  writeSettings(dirs, 'project', { ask: [`Read(/${shared}/other.md)`] });
  writeFileSync(path.join(shared, 'other.md'), 'o');
  const { kernel } = await bootRules(dirs, { plugins: [sandbox] });
  expect(await layerOf(read(kernel, path.join(shared, 'api.md')))).toBe('permission-rules:deny');
  expect(await layerOf(read(kernel, path.join(shared, 'other.md')))).toBe('permission-rules:ask');
});

test('only a rule written as an absolute or ~/ path opens a path outside: Read, Read(**), a regex do not', async () => {
  writeSettings(dirs, 'user', { allow: ['Read', 'Read(**)', `Read(~^${shared}/.*)`] });
  const { kernel } = await bootRules(dirs, { plugins: [sandbox] });
  expect(await layerOf(read(kernel, path.join(shared, 'api.md')))).toBe('permission-sandbox:deny');
});

test("an untrusted project's allow rules (settings.local.json included) grant nothing outside", async () => {
  const local = path.join(dirs.root, '.claude', 'settings.local.json');
  mkdirSync(path.dirname(local), { recursive: true });
  writeFileSync(local, JSON.stringify({ permissions: { allow: [`Read(/${shared}/**)`, 'Read(~/.ssh/**)', 'Read(~/notes/**)'] } }));
  mkdirSync(path.join(dirs.home, '.ssh'));
  writeFileSync(path.join(dirs.home, '.ssh', 'id_rsa'), 'key');
  const untrusted = await bootRules(dirs, { plugins: [sandbox], trust: false });
  for (const file of [path.join(shared, 'api.md'), '~/.ssh/id_rsa', '~/notes/todo.md']) expect(await layerOf(read(untrusted.kernel, file))).toBe('permission-sandbox:deny');
  // Trusted, the project's rule grants its folder — never the home's dotfiles (no OS sandbox service here: fail closed).
  const trusted = await bootRules(dirs, { plugins: [sandbox] });
  expect(await layerOf(read(trusted.kernel, path.join(shared, 'api.md')))).toBe('permission-rules:allow');
  const ssh = await read(trusted.kernel, '~/.ssh/id_rsa');
  expect(ssh).toMatchObject({ decision: 'deny', layer: 'permission-sandbox' });
  expect(ssh!.reason).toContain('"Read(~/.ssh/**)"');
});

test("what the OS sandbox service says is hidden stays refused, naming the rule and the reason", async () => {
  writeSettings(dirs, 'user', { allow: [`Read(/${shared}/**)`] });
  const hiding = definePlugin({
    name: 'fake-os-sandbox',
    version: '0.0.0',
    bindings: new ContainerModule(({ bind }) => {
      const service: Pick<CommandSandbox, 'hiddenReason'> = { hiddenReason: async (p) => (p.endsWith('api.md') ? 'sandbox.deny_read names it' : undefined) };
      bind(TOKENS.CommandSandbox).toConstantValue(service as CommandSandbox);
    }),
  });
  writeFileSync(path.join(shared, 'readme.md'), 'r');
  const { kernel } = await bootRules(dirs, { plugins: [sandbox, hiding] });
  const hidden = await read(kernel, path.join(shared, 'api.md'));
  expect(hidden).toMatchObject({ decision: 'deny', layer: 'permission-sandbox' });
  expect(hidden!.reason).toContain('sandbox.deny_read names it');
  expect(await layerOf(read(kernel, path.join(shared, 'readme.md')))).toBe('permission-rules:allow');
});

test('an allow rule for the write tools, glob or grep naming a place outside the project is said to allow nothing, naming the file and the way', async () => {
  const file = writeSettings(dirs, 'user', { allow: [`Read(/${shared}/**)`, `Edit(/${shared}/**)`, 'Grep(~/notes/**)', 'Edit(src/**)'] });
  const { kernel, reporter } = await bootRules(dirs, { plugins: [sandbox] });
  const said = reporter.warnings.filter((w) => w.includes('outside the project'));
  expect(said).toEqual([
    `permission-rules: ${file}:4:7: allow rule "Edit(/${shared}/**)" names ${shared}, outside the project: the file tools write only in the project and permissions.additionalDirectories, so it allows nothing there; add the folder to additionalDirectories to let them`,
    `permission-rules: ${file}:5:7: allow rule "Grep(~/notes/**)" names ${path.join(dirs.home, 'notes')}, outside the project: glob and grep search only in the project and permissions.additionalDirectories, so it allows nothing there; add the folder to additionalDirectories to let them`,
  ]);
  expect(await layerOf(decide(kernel, 'write_file', { file_path: path.join(shared, 'x.md') }))).toBe('permission-sandbox:deny');
});
