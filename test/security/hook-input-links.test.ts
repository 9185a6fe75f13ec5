/**
 * Adversarial, through the built CLI: a link on the way to a file an installed git hook runs, or a
 * program git's configuration names by a path, that a sandboxed command replaces with a folder
 * holding a planted file (the link cannot be mounted read-only: a mount follows it), or makes
 * where the file was missing. It escapes if the user's next git command on the host — or MewCode's
 * own check after the command, which hashes staged files through git's clean filters — runs the
 * planted file. (Found by a red team.)
 */
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs } from '../cli/helpers.js';
import { securityTally } from './attempts.js';
import { gitWorld, opaqueBash, runModel, sandboxActive } from './sandbox-cli.js';

const tally = securityTally('hook-input-links');
afterAll(() => {
  tally.save();
  removeTempDirs();
});

let active = true;
beforeAll(async () => {
  const probe = await sandboxActive(gitWorld('probe').home);
  active = probe.active;
  if (!active) tally.skip(4, `links on the way to hook inputs: ${probe.reason}`);
});

type World = ReturnType<typeof gitWorld>;

/** A committed folder `vendor/<name>` holding `file` (a harmless program), and `link -> vendor/<name>` committed beside it. */
function linkedFolder(w: World, link: string, file: string, body: string): void {
  mkdirSync(path.join(w.root, 'vendor', link), { recursive: true });
  writeFileSync(path.join(w.root, 'vendor', link, file), body, { mode: 0o755 });
  symlinkSync(path.join('vendor', link), path.join(w.root, link));
}

/** The user's clean filter `value` over *.txt, and a committed a.txt. */
function cleanFilter(w: World, value: string): void {
  writeFileSync(path.join(w.root, '.gitattributes'), '*.txt filter=x\n');
  writeFileSync(path.join(w.root, 'a.txt'), 'one\n');
  w.git(w.root, 'config', 'filter.x.clean', value);
}

/**
 * Staged through the planted filter, whose output is not the file (so the index names another
 * object), with times old enough that git would not look at the content again: MewCode's check
 * after the command then hashes the file through the filter to compare.
 */
const STAGE_OLD_LOOKING = 'echo changed > a.txt && touch -d 2001-01-01 a.txt && git add a.txt';

test.each([
  {
    name: 'a committed link on the way to the script an installed pre-commit hook runs, replaced by a folder',
    setup: (w: World) => {
      linkedFolder(w, 'scripts', 'check.sh', '#!/bin/sh\nexit 0\n');
      writeFileSync(path.join(w.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nsh scripts/check.sh\n');
      chmodSync(path.join(w.root, '.git', 'hooks', 'pre-commit'), 0o755);
    },
    before: undefined,
    command: (w: World) => `rm scripts && mkdir scripts && printf 'touch ${w.canary}\\n' > scripts/check.sh`,
    user: ['commit', '-q', '--allow-empty', '-m', 'x'],
  },
  {
    name: "a committed link on the way to the clean filter's program, replaced by a folder, and a file staged with old-looking times (MewCode's own check hashes it)",
    setup: (w: World) => {
      linkedFolder(w, 'tools', 'clean.sh', '#!/bin/sh\ncat\n');
      cleanFilter(w, 'sh tools/clean.sh');
    },
    before: undefined,
    command: (w: World) => `rm tools && mkdir tools && printf 'touch ${w.canary} 2>/dev/null\\necho CLEANED\\n' > tools/clean.sh && ${STAGE_OLD_LOOKING}`,
    user: ['add', '-A'],
  },
  {
    name: "the clean filter's missing program made through a new link on the way",
    setup: (w: World) => cleanFilter(w, './tools/clean.sh'),
    before: undefined,
    command: (w: World) => `mkdir x && printf '#!/bin/sh\\ntouch ${w.canary} 2>/dev/null\\necho CLEANED\\n' > x/clean.sh && chmod +x x/clean.sh && ln -s x tools && ${STAGE_OLD_LOOKING}`,
    user: ['add', '-A'],
  },
  {
    name: 'a link in the middle of the chain to the script an installed pre-commit hook runs, pointed at a file made before (a later command)',
    setup: (w: World) => {
      mkdirSync(path.join(w.root, 'ci'));
      writeFileSync(path.join(w.root, 'ci', 'check.sh'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
      mkdirSync(path.join(w.root, 'scripts'));
      symlinkSync('../l1', path.join(w.root, 'scripts', 'check.sh'));
      symlinkSync('ci/check.sh', path.join(w.root, 'l1'));
      writeFileSync(path.join(w.root, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nsh scripts/check.sh\n');
      chmodSync(path.join(w.root, '.git', 'hooks', 'pre-commit'), 0o755);
    },
    before: (w: World) => `mkdir -p notes && printf 'touch ${w.canary}\\n' > notes/todo.sh`,
    command: () => 'sleep 1.1; ln -sfn notes/todo.sh l1',
    user: ['commit', '-q', '--allow-empty', '-m', 'x'],
  },
])('$name', async ({ name, setup, before, command, user }) => {
  if (!active) return;
  const w = gitWorld('hook-link');
  setup(w);
  w.git(w.root, 'add', '-A');
  w.git(w.root, 'commit', '-q', '-m', 'setup');
  const run = await runModel(w.root, w.home, [...(before ? [opaqueBash(before(w))] : []), opaqueBash(command(w))]);
  for (const result of run.toolResults) expect(result).toMatch(/^exit_code: 0/);
  const duringSession = existsSync(w.canary);
  w.git(w.root, ...user);
  const escaped = existsSync(w.canary);
  tally.attempt(name, escaped);
  expect({ duringSession, escaped, said: escaped ? run.result.stderr : '' }).toEqual({ duringSession: false, escaped: false, said: '' });
}, 60_000);
