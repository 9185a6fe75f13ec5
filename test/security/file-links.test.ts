/**
 * A15 without timing luck: hard links to an outside canary, dangling links, a symlinked
 * directory in the middle of a path, and the check-then-use gaps replayed deterministically (the
 * swap happens exactly between the resolution and the use) — on Linux's descriptor paths and on
 * the portable O_NOFOLLOW fallback. Every attempt is also an assertion.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test } from '@jest/globals';
import { securityTally } from './attempts.js';
import { CANARY, INSIDE, leaks, makeWorld, OUTSIDE_ONLY, RG_PATH, type World } from './file-harness.js';
import { fileScope, openDirectory, openEntry, openForRead, replaceEntry, useDescriptorPaths } from '../../sdk/file-tool-support/contained-fs.js';
import { resolveRealSync } from '../../sdk/path-containment.js';
import { walkProject } from '../../sdk/search-common/walker.js';
import { searchWithRe2js } from '../../plugins/tool-grep/re2js-engine.js';
import { compilePattern } from '../../plugins/tool-grep/pattern.js';
import { ResultCollector } from '../../plugins/tool-grep/results.js';
import type { ToolOutput } from '../../types/tools.js';
import { createOutputLimits } from '../../plugins/output-limits/index.js';

const tally = securityTally('file-links');
afterAll(() => tally.save());

let world: World;
afterEach(() => {
  useDescriptorPaths(null);
  world?.cleanup();
});

/** One attempt: escaped when `output` leaks or the outside area changed since `before`. */
function attempt(name: string, before: string, output?: ToolOutput): void {
  const leaked = output !== undefined && leaks(output);
  const changed = world.outsideSnapshot() !== before;
  tally.attempt(name, leaked || changed);
  expect({ name, leaked, changed }).toEqual({ name, leaked: false, changed: false });
}

const at = (rel: string): string => path.join(world.root, rel);
const markRead = (rel: string): void => world.reads.recordRead(resolveRealSync(at(rel)), statSync(at(rel)).mtimeMs);

describe('hard links to an outside canary', () => {
  const setUp = (): void => {
    world = makeWorld();
    linkSync(path.join(world.outside, 'canary.txt'), at('hard.txt'));
    markRead('hard.txt');
  };

  test('write_file replaces the link: the outside inode keeps its content and mtime', async () => {
    setUp();
    const before = world.outsideSnapshot();
    const result = await world.write({ path: 'hard.txt', content: 'replaced\n' });
    expect(result.isError).toBeUndefined();
    expect(readFileSync(at('hard.txt'), 'utf8')).toBe('replaced\n');
    expect(statSync(at('hard.txt')).ino).not.toBe(statSync(path.join(world.outside, 'canary.txt')).ino);
    attempt('hard link: write_file', before, result);
  });

  test('edit_file replaces the link too (single and replace_all)', async () => {
    setUp();
    const before = world.outsideSnapshot();
    const result = await world.edit({ file_path: 'hard.txt', old_string: CANARY, new_string: 'edited' });
    expect(result.content).toMatch(/^Edited hard\.txt/);
    expect(readFileSync(at('hard.txt'), 'utf8')).toBe('edited\n');
    attempt('hard link: edit_file', before); // the diff shows what was replaced, by design: not a leak check
    linkSync(path.join(world.outside, 'dir', 'f.txt'), at('hard2.txt'));
    markRead('hard2.txt');
    const before2 = world.outsideSnapshot();
    await world.edit({ file_path: 'hard2.txt', old_string: 'OUTSIDE', new_string: 'x', replace_all: true });
    attempt('hard link: edit_file replace_all', before2);
  });

  test('read_file and grep refuse a multi-link file outside a package directory (its other name may be outside)', async () => {
    setUp();
    const before = world.outsideSnapshot();
    const result = await world.read({ path: 'hard.txt' });
    expect(result).toEqual({ isError: true, content: expect.stringMatching(/^Refusing to read hard\.txt: it has 2 hard links/) });
    attempt('hard link: read_file', before, result);
    for (const engine of ['re2js', ...(RG_PATH ? ['ripgrep' as const] : [])] as const) attempt(`hard link: grep (${engine})`, before, await world.grep({ pattern: 'OUTSIDE' }, engine));
    expect(statSync(at('hard.txt')).nlink).toBe(2);
  });

  test('a multi-link file in node_modules (a package store link) is read and searched', async () => {
    world = makeWorld();
    mkdirSync(at('node_modules/pkg'), { recursive: true });
    writeFileSync(path.join(world.outside, 'store-file.js'), 'store content\n');
    linkSync(path.join(world.outside, 'store-file.js'), at('node_modules/pkg/index.js'));
    expect((await world.read({ path: 'node_modules/pkg/index.js' })).content).toBe('     1\tstore content');
    expect((await world.grep({ pattern: 'store content', path: 'node_modules/pkg' }, 're2js')).content).toContain('index.js');
  });
});

describe('dangling links pointing outside', () => {
  const setUp = (): void => {
    world = makeWorld();
    symlinkSync(path.join(world.outside, 'new-file.txt'), at('dangle.txt'));
    symlinkSync(path.join(world.outside, 'new-dir'), at('dangle-dir'));
  };

  test('write_file and edit_file (create) through a dangling file link create nothing outside', async () => {
    setUp();
    const before = world.outsideSnapshot();
    const written = await world.write({ path: 'dangle.txt', content: 'x' });
    expect(written.content).toMatch(/^Refusing to write dangle\.txt: it resolves to .*new-file\.txt, outside the project root/);
    attempt('dangling file link: write_file', before, written);
    const created = await world.edit({ file_path: 'dangle.txt', old_string: '', new_string: 'x' });
    expect(created.isError).toBe(true);
    attempt('dangling file link: edit_file create', before, created);
    attempt('dangling file link: read_file', before, await world.read({ path: 'dangle.txt' }));
  });

  test('a dangling directory link in the middle of the path: no directory is created outside', async () => {
    setUp();
    const before = world.outsideSnapshot();
    const written = await world.write({ path: 'dangle-dir/sub/x.txt', content: 'x' });
    expect(written.isError).toBe(true);
    attempt('dangling dir link: write_file', before, written);
    attempt('dangling dir link: edit_file create', before, await world.edit({ file_path: 'dangle-dir/x.txt', old_string: '', new_string: 'x' }));
    expect(existsSync(path.join(world.outside, 'new-dir'))).toBe(false);
  });

  test('glob and grep pass dangling links by', async () => {
    setUp();
    writeFileSync(at('plain.txt'), INSIDE);
    const before = world.outsideSnapshot();
    const listed = await world.glob({ pattern: '**/*' });
    expect(listed.content).toBe('plain.txt');
    attempt('dangling links: glob', before, listed);
    attempt('dangling links: grep', before, await world.grep({ pattern: '.' }, 're2js'));
  });
});

describe('a symlinked directory in the middle of the path, pointing outside', () => {
  const setUp = (): void => {
    world = makeWorld();
    symlinkSync(path.join(world.outside, 'dir'), at('linkdir'));
    world.reads.recordRead(path.join(world.outside, 'dir', 'f.txt'), statSync(path.join(world.outside, 'dir', 'f.txt')).mtimeMs);
  };

  test('read_file, write_file (existing and new) and edit_file refuse', async () => {
    setUp();
    const before = world.outsideSnapshot();
    const read = await world.read({ path: 'linkdir/f.txt' });
    expect(read.content).toMatch(/^Refusing to read linkdir\/f\.txt: it resolves to .*outside/);
    attempt('middle dir link: read_file', before, read);
    // A missing name's "similar names" hint must not list the outside directory either.
    const missing = await world.read({ path: 'linkdir/outside-only-secret.md' });
    expect(missing.content).toMatch(/^File not found: linkdir\/outside-only-secret\.md\. Check the path/);
    attempt('middle dir link: read_file similar-name hint', before, missing);
    attempt('middle dir link: write_file existing', before, await world.write({ path: 'linkdir/f.txt', content: 'x' }));
    attempt('middle dir link: write_file new', before, await world.write({ path: 'linkdir/new.txt', content: 'x' }));
    const edited = await world.edit({ file_path: 'linkdir/f.txt', old_string: 'OUTSIDE', new_string: 'x', replace_all: true });
    expect(edited.content).toMatch(/^Refusing to edit linkdir\/f\.txt/);
    attempt('middle dir link: edit_file', before, edited);
  });

  test('glob and grep (both engines) never show what is behind the link', async () => {
    setUp();
    writeFileSync(at('plain.txt'), INSIDE);
    const before = world.outsideSnapshot();
    attempt('middle dir link: glob **', before, await world.glob({ pattern: '**/*' }));
    attempt('middle dir link: glob linkdir/**', before, await world.glob({ pattern: 'linkdir/**' }));
    attempt('middle dir link: grep re2js', before, await world.grep({ pattern: 'CANARY|inside' }, 're2js'));
    attempt('middle dir link: grep path=linkdir', before, await world.grep({ pattern: 'CANARY', path: 'linkdir' }, 're2js'));
    if (RG_PATH) attempt('middle dir link: grep ripgrep', before, await world.grep({ pattern: 'CANARY|inside' }, 'ripgrep'));
    else tally.skip(1, 'rg is not on PATH');
  });
});

/** The check-then-use gaps of the tools, replayed with the swap exactly inside the gap. */
describe.each([
  ['descriptor paths', true],
  ['portable O_NOFOLLOW fallback', false],
] as const)('swap between resolution and use (%s)', (_label, descriptors) => {
  const setUp = (): { dir: string; scope: ReturnType<typeof fileScope>; swap(): void } => {
    world = makeWorld();
    useDescriptorPaths(descriptors);
    const dir = at('d');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'f.txt'), INSIDE);
    writeFileSync(at('root-file.txt'), INSIDE);
    return {
      dir,
      scope: fileScope(world.root, world.context.homeDir),
      swap: () => {
        renameSync(dir, at('d.parked'));
        symlinkSync(path.join(world.outside, 'dir'), dir);
      },
    };
  };

  test('read: resolved inside, swapped, opened → refused', async () => {
    const { swap, scope } = setUp();
    const before = world.outsideSnapshot();
    swap();
    // The fallback resolves first (realpath): the swapped path is outside before anything opens.
    await expect(openForRead(at('d/f.txt'), scope)).rejects.toMatchObject({ code: 'EOUTSIDE' });
    attempt(`gap ${descriptors ? 'fd' : 'walk'}: read`, before);
  });

  test('write: directory resolved inside, swapped before it is opened → refused', async () => {
    const { swap, scope, dir } = setUp();
    const before = world.outsideSnapshot();
    const real = resolveRealSync(dir);
    swap();
    await expect(openDirectory(real, scope, { create: false })).rejects.toMatchObject({ code: descriptors ? 'EOUTSIDE' : 'ERACE' });
    attempt(`gap ${descriptors ? 'fd' : 'walk'}: write, dir open`, before);
  });

  test('write: directory opened, swapped before the write → the write lands in the verified directory', async () => {
    const { swap, scope, dir } = setUp();
    const before = world.outsideSnapshot();
    const opened = await openDirectory(dir, scope, { create: false });
    try {
      swap();
      if (descriptors) {
        const entry = await openEntry(opened, 'f.txt');
        await entry?.handle.close();
        await replaceEntry(opened, 'f.txt', 'new\n', entry?.stats);
        expect(readFileSync(at('d.parked/f.txt'), 'utf8')).toBe('new\n');
      } else {
        // Without descriptor paths names are re-resolved, so the directory is re-walked first:
        // the swap is refused, not followed.
        await expect(openEntry(opened, 'f.txt')).rejects.toMatchObject({ code: 'ERACE' });
        await expect(replaceEntry(opened, 'f.txt', 'new\n', statSync(at('d.parked/f.txt')))).rejects.toMatchObject({ code: 'ERACE' });
      }
    } finally {
      await opened.close();
    }
    attempt(`gap ${descriptors ? 'fd' : 'walk'}: write, after dir open`, before);
  });

  test('write: the file swapped for a symlink after its directory was verified → ERACE, nothing written', async () => {
    const { scope, dir } = setUp();
    const before = world.outsideSnapshot();
    const opened = await openDirectory(dir, scope, { create: false });
    try {
      renameSync(path.join(dir, 'f.txt'), path.join(dir, 'f.parked'));
      symlinkSync(path.join(world.outside, 'canary.txt'), path.join(dir, 'f.txt'));
      await expect(openEntry(opened, 'f.txt')).rejects.toMatchObject({ code: 'ERACE' });
    } finally {
      await opened.close();
    }
    attempt(`gap ${descriptors ? 'fd' : 'walk'}: entry swapped`, before);
  });

  test('walk: a directory listed as a directory, swapped before it is entered → skipped', async () => {
    const { swap } = setUp();
    const before = world.outsideSnapshot();
    const listed: string[] = [];
    let swapped = false;
    const summary = await walkProject({
      root: world.root,
      start: world.root,
      respectIgnore: true,
      onFile: (rel) => {
        listed.push(rel);
        if (!swapped && rel === 'root-file.txt') {
          swapped = true;
          swap(); // d was already seen as a directory in the root's listing
        }
      },
    });
    tally.attempt(`gap ${descriptors ? 'fd' : 'walk'}: walker`, listed.some((rel) => rel.includes(OUTSIDE_ONLY)) || world.outsideSnapshot() !== before);
    expect(swapped).toBe(true);
    expect(listed.some((rel) => rel.startsWith('d/'))).toBe(false); // d is now the link: nothing listed under it
    expect(summary.stopped).toBeUndefined();
  });

  test('search: a file listed by the walk, its directory swapped before it is read → unreadable, not read', async () => {
    const { swap } = setUp();
    const before = world.outsideSnapshot();
    swap();
    const compiled = compilePattern('CANARY|inside', false);
    if (!compiled.ok) throw new Error(compiled.error);
    const collector = new ResultCollector({ mode: 'content', before: 0, after: 0, limit: 100, keepChars: 1000 });
    const outcome = await searchWithRe2js({ root: world.root, files: ['d/f.txt', 'root-file.txt'], pattern: compiled.value, collector, signal: new AbortController().signal, deadline: Date.now() + 10_000 });
    const shown = collector.render(createOutputLimits(at('.spill')), { unreadable: 0, stoppedByDeadline: false }, 'none');
    attempt(`gap ${descriptors ? 'fd' : 'walk'}: grep search`, before, { content: shown });
    expect(outcome.unreadable).toBe(1);
    expect(shown).toBe('root-file.txt:1: inside content');
  });
});
