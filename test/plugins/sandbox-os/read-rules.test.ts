/**
 * Read deny rules → paths hidden inside the sandbox (read-rules.ts), over a real temporary tree
 * with a predicate standing in for permission-rules' search policy. Runs everywhere (no bwrap).
 */
import { chmod, mkdir, mkdtemp, realpath, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MAX_RULE_HIDDEN, ruleHiddenPaths } from '../../../plugins/sandbox-os/read-rules.js';
import { OsCommandSandbox } from '../../../plugins/sandbox-os/service.js';

async function tree(files: string[]): Promise<string> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-sbx-rules-')));
  for (const file of files) {
    if (file.endsWith('/')) await mkdir(path.join(base, file), { recursive: true });
    else {
      await mkdir(path.dirname(path.join(base, file)), { recursive: true });
      await writeFile(path.join(base, file), 'x');
    }
  }
  return base;
}

/** Covers exactly these absolute paths and everything below them, as `Read(x/**)` would. */
const covering = (...targets: string[]) => ({ hidden: (p: string) => targets.some((t) => p === t || p.startsWith(`${t}/`)) });

test('a covered directory is hidden whole and not entered; covered files one by one; the rest is not', async () => {
  const base = await tree(['proj/secrets/a.key', 'proj/secrets/deep/b.key', 'proj/.env', 'proj/src/x.ts', 'home/']);
  const root = path.join(base, 'proj');
  const { paths, truncated } = await ruleHiddenPaths(covering(`${root}/secrets`, `${root}/.env`), [root], path.join(base, 'home'));
  expect(paths.sort()).toEqual([`${root}/.env`, `${root}/secrets`]);
  expect(truncated).toBe(false);
});

test("without prefixes: the home directory's top level only; with prefixes: anywhere below them", async () => {
  const base = await tree(['proj/a', 'home/.notes', 'home/.config/app/token', 'etc/app/key']);
  const [root, home] = [path.join(base, 'proj'), path.join(base, 'home')];
  const rules = covering(`${home}/.notes`, `${home}/.config/app/token`, `${base}/etc/app/key`);
  expect((await ruleHiddenPaths(rules, [root], home)).paths).toEqual([`${home}/.notes`]);
  const withPrefixes = { ...rules, prefixes: [`${home}/.config/app/token`, `${base}/etc`, `${base}/missing`] };
  expect((await ruleHiddenPaths(withPrefixes, [root], home)).paths.sort()).toEqual([`${base}/etc/app/key`, `${home}/.config/app/token`].sort());
});

test('a writable root, or a directory holding one, is never hidden whole: what it holds besides the root is', async () => {
  const base = await tree(['home/src/proj/a.txt', 'home/src/other/b.txt', 'home/keep']);
  const [home, root] = [path.join(base, 'home'), path.join(base, 'home', 'src', 'proj')];
  // `Read(~/**)`, with the project inside the home.
  const { paths } = await ruleHiddenPaths(covering(home), [root], path.join(base, 'elsewhere'));
  expect(paths).not.toContain(root);
  expect(paths).toContain(`${root}/a.txt`);
  const again = await ruleHiddenPaths(covering(`${home}/src`), [root], home);
  expect(again.paths.sort()).toEqual([`${root}/a.txt`, `${home}/src/other`].sort());
});

test('a link is judged by the predicate, hidden at its target, and never entered', async () => {
  const base = await tree(['proj/x', 'outside/secret', 'outside/dir/f']);
  const root = path.join(base, 'proj');
  await symlink(path.join(base, 'outside', 'secret'), path.join(root, 'innocent'));
  await symlink(path.join(base, 'outside', 'dir'), path.join(root, 'linked-dir'));
  // As permission-rules does: a path is covered when its resolved form is.
  const real = { hidden: (p: string) => p.endsWith('/innocent') || p === `${base}/outside/secret` || p.startsWith(`${root}/linked-dir/`) };
  expect((await ruleHiddenPaths(real, [root], path.join(base, 'none'))).paths).toEqual([`${base}/outside/secret`]);
});

test('objects below .git are not walked; a predicate that throws hides (fail closed)', async () => {
  const base = await tree(['proj/.git/objects/ab/cdef', 'proj/.git/HEAD', 'proj/bad']);
  const root = path.join(base, 'proj');
  const seen: string[] = [];
  const rules = {
    hidden: (p: string) => {
      seen.push(p);
      if (p.endsWith('/bad')) throw new Error('broken rule');
      return false;
    },
  };
  expect((await ruleHiddenPaths(rules, [root], path.join(base, 'none'))).paths).toEqual([`${root}/bad`]);
  expect(seen).not.toContain(`${root}/.git/objects/ab`);
  expect(seen).toContain(`${root}/.git/HEAD`);
});

test(`bounded: at most ${MAX_RULE_HIDDEN} paths, then truncated; the service says so once`, async () => {
  const files = Array.from({ length: MAX_RULE_HIDDEN + 5 }, (_, i) => `proj/f${i}.key`);
  const base = await tree(files);
  const root = path.join(base, 'proj');
  const all = { hidden: (p: string) => p.endsWith('.key') };
  const result = await ruleHiddenPaths(all, [root], path.join(base, 'none'));
  expect(result.truncated).toBe(true);
  expect(result.paths).toHaveLength(MAX_RULE_HIDDEN);

  // Through the service, with a bwrap that only answers the probe.
  const bin = await tree(['bin/']);
  await writeFile(path.join(bin, 'bin', 'bwrap'), '#!/bin/sh\nexit 0\n');
  await chmod(path.join(bin, 'bin', 'bwrap'), 0o755);
  const warnings: string[] = [];
  const sandbox = new OsCommandSandbox({ homeDir: path.join(base, 'none'), warn: (m) => warnings.push(m), platform: 'linux', searchPath: path.join(bin, 'bin'), readRules: () => all });
  await sandbox.start();
  for (let i = 0; i < 2; i++) {
    const wrapped = await sandbox.wrap({ argv: ['/bin/true'], cwd: root, projectRoot: root, homeDir: path.join(base, 'none') });
    expect(wrapped.kind).toBe('sandboxed');
    if (wrapped.kind === 'sandboxed') {
      expect(wrapped.launch.args.filter((arg) => arg === '/dev/null')).toHaveLength(MAX_RULE_HIDDEN);
      await wrapped.launch.release();
    }
  }
  await sandbox.dispose();
  expect(warnings.filter((w) => w.includes('Read deny rules were applied'))).toHaveLength(1);
});
