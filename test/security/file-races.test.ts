/**
 * A15 under attack: a racer process swaps links in a tight loop while read_file, write_file,
 * edit_file, glob and grep run again and again. Whatever the interleaving, no result may show
 * the outside canaries, and nothing in the outside area may change (not a byte, not an mtime,
 * not a new name). Each batch (one racer, BATCH_CALLS calls) is one attempt in the tally.
 */
import { mkdirSync, symlinkSync, statSync, writeFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test } from '@jest/globals';
import { securityTally } from './attempts.js';
import { CANARY, INSIDE, makeWorld, RG_PATH, startRacer, underRace, type RaceSpec, type World } from './file-harness.js';
import type { ToolOutput } from '../../types/tools.js';

const tally = securityTally('file-races');
afterAll(() => tally.save());

const BATCHES = 3;
/** Calls per batch; grep's are fewer (ripgrep is a process per call). */
const BATCH_CALLS = 16;
const GREP_CALLS = 6;
/** A fixed mtime (seconds) for the racer's regular file, so the read record stays valid. */
const FIXED_MTIME_S = 1_700_000_000;

let world: World;
afterEach(() => world?.cleanup());

/**
 * Run `batches` batches of `calls` calls against one racer; each batch is an attempt that escapes
 * when a result leaks or the outside area changed. Returns every output for further checks.
 */
async function attack(name: string, race: RaceSpec, call: (i: number) => Promise<ToolOutput>, batches = BATCHES, calls = BATCH_CALLS): Promise<ToolOutput[]> {
  const all: ToolOutput[] = [];
  const stop = await startRacer({ maxMs: 15_000, ...race });
  try {
    for (let batch = 1; batch <= batches; batch++) {
      const before = world.outsideSnapshot();
      const result = await underRace(calls, call);
      all.push(...result.outputs);
      const changed = world.outsideSnapshot() !== before;
      tally.attempt(`${name} #${batch}`, result.leaked || changed);
      expect({ attempt: `${name} #${batch}`, leaked: result.leaked, changed }).toEqual({ attempt: `${name} #${batch}`, leaked: false, changed: false });
    }
  } finally {
    await stop();
  }
  return all;
}

describe('final name: a symlink whose target flips between an inside file and the outside canary', () => {
  const setUp = (): RaceSpec => {
    world = makeWorld();
    writeFileSync(path.join(world.root, 'real.txt'), INSIDE);
    symlinkSync(path.join(world.root, 'real.txt'), path.join(world.root, 'link.txt'));
    // Worst case for containment: the tracker would let both targets be changed.
    world.reads.recordRead(path.join(world.root, 'real.txt'), statSync(path.join(world.root, 'real.txt')).mtimeMs);
    world.reads.recordRead(path.join(world.outside, 'canary.txt'), statSync(path.join(world.outside, 'canary.txt')).mtimeMs);
    return { mode: 'link-target', at: path.join(world.root, 'link.txt'), a: path.join(world.root, 'real.txt'), b: path.join(world.outside, 'canary.txt') };
  };

  test('read_file shows the inside file or refuses, never the canary', async () => {
    const spec = setUp();
    const outputs = await attack('symlink target flip: read_file', spec, () => world.read({ path: 'link.txt' }));
    // The race was real: both targets were met.
    expect(outputs.some((o) => !o.isError && o.content.includes('inside content'))).toBe(true);
    expect(outputs.some((o) => o.isError && /outside the project root/.test(o.content))).toBe(true);
  });

  test('write_file writes the inside file or refuses, never the canary', async () => {
    const spec = setUp();
    await attack('symlink target flip: write_file', spec, (i) => world.write({ path: 'link.txt', content: `write ${i}\n` }));
  });

  test('edit_file edits the inside file or refuses; its no-match hint never quotes the canary', async () => {
    const spec = setUp();
    await attack('symlink target flip: edit_file', spec, (i) =>
      i % 2 === 0 ? world.edit({ file_path: 'link.txt', old_string: CANARY.slice(0, 16), new_string: 'x' }) : world.edit({ file_path: 'link.txt', old_string: 'content', new_string: 'content', replace_all: true }),
    4);
  });
});

describe('final name: a regular file swapped for a symlink to the canary', () => {
  const setUp = (): RaceSpec => {
    world = makeWorld();
    const at = path.join(world.root, 'swap.txt');
    writeFileSync(at, INSIDE);
    utimesSync(at, FIXED_MTIME_S, FIXED_MTIME_S);
    world.reads.recordRead(at, statSync(at).mtimeMs);
    world.reads.recordRead(path.join(world.outside, 'canary.txt'), statSync(path.join(world.outside, 'canary.txt')).mtimeMs);
    return { mode: 'file-or-link', at, a: '', b: path.join(world.outside, 'canary.txt'), text: INSIDE, mtimeS: FIXED_MTIME_S };
  };

  test('read_file', async () => {
    const spec = setUp();
    await attack('file/link swap: read_file', spec, () => world.read({ path: 'swap.txt' }));
  });

  test('write_file', async () => {
    const spec = setUp();
    await attack('file/link swap: write_file', spec, () => world.write({ path: 'swap.txt', content: INSIDE }));
  });

  test('edit_file', async () => {
    const spec = setUp();
    await attack('file/link swap: edit_file', spec, (i) => world.edit({ file_path: 'swap.txt', old_string: i % 2 ? 'inside' : CANARY.slice(0, 16), new_string: 'inside', replace_all: true }));
  });

  test.each(['re2js', 'ripgrep'] as const)('grep (%s engine)', async (engine) => {
    if (engine === 'ripgrep' && !RG_PATH) {
      tally.skip(BATCHES, 'rg is not on PATH: the ripgrep engine was not attacked');
      return;
    }
    const spec = setUp();
    await attack(`file/link swap: grep ${engine}`, spec, () => world.grep({ pattern: 'CANARY|inside' }, engine), BATCHES, GREP_CALLS);
  });
});

describe('middle of the path: a directory swapped for a symlink to an outside directory', () => {
  const setUp = (): RaceSpec => {
    world = makeWorld();
    const dir = path.join(world.root, 'd');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'f.txt'), INSIDE);
    world.reads.recordRead(path.join(dir, 'f.txt'), statSync(path.join(dir, 'f.txt')).mtimeMs);
    world.reads.recordRead(path.join(world.outside, 'dir', 'f.txt'), statSync(path.join(world.outside, 'dir', 'f.txt')).mtimeMs);
    // Matching files walked and searched before d (a0/ … a9/ sort and often pop first): they widen
    // the window between seeing d as a directory and opening what is under it.
    for (let dir = 0; dir < 10; dir++) {
      mkdirSync(path.join(world.root, `a${dir}`));
      for (let i = 0; i < 30; i++) writeFileSync(path.join(world.root, `a${dir}`, `pad-${i}.txt`), 'inside pad\n');
    }
    return { mode: 'dir-or-link', at: dir, a: path.join(world.root, 'd.parked'), b: path.join(world.outside, 'dir') };
  };

  test('read_file', async () => {
    const spec = setUp();
    await attack('dir/link swap: read_file', spec, () => world.read({ path: 'd/f.txt' }));
  });

  test('write_file over an existing file', async () => {
    const spec = setUp();
    await attack('dir/link swap: write_file existing', spec, () => world.write({ path: 'd/f.txt', content: INSIDE }));
  });

  test('write_file of a new file', async () => {
    const spec = setUp();
    await attack('dir/link swap: write_file new', spec, (i) => world.write({ path: `d/new-${i}.txt`, content: 'new\n' }));
  });

  test('edit_file', async () => {
    const spec = setUp();
    await attack('dir/link swap: edit_file', spec, (i) => world.edit({ file_path: 'd/f.txt', old_string: i % 2 ? 'inside' : CANARY.slice(0, 16), new_string: 'inside', replace_all: true }));
  });

  test('glob never lists an outside name', async () => {
    const spec = setUp();
    await attack('dir/link swap: glob', spec, (i) => world.glob({ pattern: i % 2 ? '**/*' : 'd/**' }));
  });

  test.each(['re2js', 'ripgrep'] as const)('grep (%s engine)', async (engine) => {
    if (engine === 'ripgrep' && !RG_PATH) {
      tally.skip(BATCHES, 'rg is not on PATH: the ripgrep engine was not attacked');
      return;
    }
    const spec = setUp();
    await attack(`dir/link swap: grep ${engine}`, spec, (i) => world.grep(i % 2 ? { pattern: 'CANARY|inside' } : { pattern: 'CANARY|inside', path: 'd' }, engine), BATCHES, GREP_CALLS);
  });
});
