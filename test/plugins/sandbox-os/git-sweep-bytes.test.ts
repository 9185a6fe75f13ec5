/**
 * The sweep after each sandboxed command (git-sweep.ts) reads names as bytes: a directory, an
 * index entry or a pointer (`gitdir:`, `commondir`) naming a path that is not UTF-8, or holding a
 * NUL (where git stops reading), leads the sweep where it leads git. What it cannot read (a
 * directory it cannot list) is reported, never taken for "nothing there". Planted with a shell,
 * as a command would, on real git repositories; each planted configuration is shown to run at the
 * next host git command when left in place, and not to run once the sweep has set it aside.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromBytes, printable, toBytes } from '../../../plugins/sandbox-os/byte-names.js';
import { gitBaseline, sweepGitDirs } from '../../../plugins/sandbox-os/git-sweep.js';
import { commondirPath, gitfilePath } from '../../../plugins/sandbox-os/git-pointers.js';
import { follow } from '../../../plugins/sandbox-os/sweep-paths.js';

let base: string;
let root: string;
let canary: string;
const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: base, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e', CANARY: canary });
/** Runs a shell script in the project, as a sandboxed command would (printf writes the raw bytes). */
const sh = (script: string): Buffer => execFileSync('sh', ['-ec', script], { cwd: root, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-sweep-bytes-')));
  root = path.join(base, 'project');
  canary = path.join(base, 'PWNED');
  execFileSync('git', ['init', '-q', root], { env: env() });
});
// rm, not rmSync: one test leaves a tree deeper than PATH_MAX.
afterEach(() => execFileSync('sh', ['-c', 'chmod -R u+rwx "$0"; rm -rf "$0"', base]));

const FSMONITOR = `printf '[core]\\n\\tfsmonitor = "touch %s; false"\\n' "$CANARY"`;
/** A repository with one commit whose git directory ends at `$1` (then hostile), its work tree removed. */
const PLANTED_GIT_DIR = `planted() { git init -q tmp && git -C tmp commit -q --allow-empty -m x && mkdir -p "$(dirname "$1")" && mv tmp/.git "$1" && rm -rf tmp && ${FSMONITOR} >> "$1/config"; }`;

/** The baseline, then the "command", then the sweep: what was set aside (relative, non-UTF-8 bytes as \xNN) and what could not be checked. */
async function around(script: string): Promise<{ moved: string[]; unchecked: string[] }> {
  const baseline = await gitBaseline([root]);
  const since = Date.now() - 20;
  sh(script);
  const { quarantined, unchecked } = await sweepGitDirs([root], since, baseline);
  return { moved: quarantined.map((q) => printable(path.relative(root, q.path))).sort(), unchecked };
}

/** The user's next `git status` (in `dir`, a shell word): true when it ran the planted program. */
function statusRuns(dir = '.'): boolean {
  try {
    sh(`git -C ${dir} status --porcelain >/dev/null 2>&1 || true`);
  } catch {
    /* a failing git ran nothing more */
  }
  const ran = existsSync(canary);
  rmSync(canary, { force: true });
  return ran;
}

/** A `.git` file at sub/ written by printf `pointer`, registered as a submodule, pointing at a hostile repository in node_modules (where the walk does not go). */
const pointerScript = (target: string, pointer: string): string =>
  `${PLANTED_GIT_DIR}; planted "${target}"; c=$(git --git-dir="${target}" rev-parse HEAD); mkdir sub; printf '${pointer}' > sub/.git; git update-index --add --cacheinfo 160000,$c,sub`;

/** What a command plants, where the user's next `git status` runs it, and what the sweep sets aside. */
const PLANTINGS: { what: string; script: string; statusIn: string; moved: string }[] = [
  {
    what: 'a registered submodule whose directory name has a non-UTF-8 byte, given an fsmonitor: its config',
    script: `d="m$(printf '\\377')"; git init -q "$d"; git -C "$d" commit -q --allow-empty -m x; ${FSMONITOR} >> "$d/.git/config"; git add "$d"`,
    statusIn: '.',
    moved: 'm\\xff/.git/config',
  },
  {
    what: 'a nested repository (not registered) below a directory whose name is not UTF-8: its config',
    script: `d="d$(printf '\\377')/sub"; mkdir -p "$d"; git init -q "$d"; ${FSMONITOR} >> "$d/.git/config"`,
    statusIn: `"d$(printf '\\377')/sub"`,
    moved: 'd\\xff/sub/.git/config',
  },
  {
    what: 'a .git file whose gitdir: holds a NUL (git reads up to it) pointing at a hostile repository: the .git file',
    script: pointerScript('node_modules/x', 'gitdir: ../node_modules/x\\000junk\\n'),
    statusIn: '.',
    moved: 'sub/.git',
  },
  {
    what: 'a .git file whose gitdir: names a directory that is not UTF-8: the .git file',
    script: pointerScript(`node_modules/x$(printf '\\377')`, 'gitdir: ../node_modules/x\\377\\n'),
    statusIn: '.',
    moved: 'sub/.git',
  },
  {
    what: 'a .git link to a file holding the pointer (git reads through it, from the link’s directory): the link',
    script: `${PLANTED_GIT_DIR}; planted node_modules/x; c=$(git --git-dir=node_modules/x rev-parse HEAD); printf 'gitdir: ../node_modules/x\\n' > ptr; mkdir sub; ln -s ../ptr sub/.git; git update-index --add --cacheinfo 160000,$c,sub`,
    statusIn: '.',
    moved: 'sub/.git',
  },
  {
    what: 'a nested repository whose commondir holds a NUL, leading to a hostile common dir: the commondir',
    script: `${PLANTED_GIT_DIR}; planted node_modules/c; git init -q sub; printf '../../node_modules/c\\000junk\\n' > sub/.git/commondir`,
    statusIn: 'sub',
    moved: 'sub/.git/commondir',
  },
  {
    what: 'a nested repository whose commondir names a directory that is not UTF-8, leading to a hostile common dir: the commondir',
    script: `${PLANTED_GIT_DIR}; planted "node_modules/c$(printf '\\377')"; git init -q sub; printf '../../node_modules/c\\377\\n' > sub/.git/commondir`,
    statusIn: 'sub',
    moved: 'sub/.git/commondir',
  },
];

describe('names that are not UTF-8, and pointers with a NUL', () => {
  test.each(PLANTINGS)('$what is set aside', async ({ script, statusIn, moved }) => {
    expect(await around(script)).toEqual({ moved: [moved], unchecked: [] });
    expect(statusRuns(statusIn)).toBe(false);
  });

  test.each(PLANTINGS)('control: $what, left in place, runs at the next git status', ({ script, statusIn }) => {
    sh(script);
    expect(statusRuns(statusIn)).toBe(true);
  });

  test('ordinary names that are not ASCII (é, 日本): clean repositories and submodules are left alone with nothing reported; a hostile one is set aside by its name', async () => {
    const clean = `git init -q é/日本; git -C é/日本 commit -q --allow-empty -m x; git add é/日本; mkdir -p ü; git init -q --separate-git-dir=ü/ß 日本`;
    expect(await around(clean)).toEqual({ moved: [], unchecked: [] });
    expect(await around(`git init -q 日本2; ${FSMONITOR} >> 日本2/.git/config`)).toEqual({ moved: ['日本2/.git/config'], unchecked: [] });
  });
});

describe('what cannot be read is reported', () => {
  test('a directory too deep to be listed by its path (over PATH_MAX) holding a hostile repository: the user is told it was not checked', async () => {
    const name = 'd'.repeat(200);
    // bash, whose cd goes below PATH_MAX (dash's does not); the git directory made by hand (git refuses to work that deep).
    const { moved, unchecked } = await around(`exec bash -ec 'for i in $(seq 22); do mkdir ${name}; cd ${name}; done; mkdir -p sub/.git/objects sub/.git/refs; echo "ref: refs/heads/main" > sub/.git/HEAD; ${FSMONITOR.replace(/'/g, `'"'"'`)} > sub/.git/config'`);
    expect(moved).toEqual([]);
    expect(unchecked).toEqual([expect.stringMatching(/could not be read; git repositories in it were not checked \(ENAMETOOLONG\)$/)]);
  });

  // Root may list any directory, so this is defined only for an ordinary user (the ENAMETOOLONG
  // case above covers an unreadable directory under root, as CI runs).
  if (process.getuid?.() !== 0) test('a directory the command made unlistable holding a hostile repository: the user is told; one never searchable that the command did not change is not reported', async () => {
    sh('mkdir -p old && chmod 000 old');
    await new Promise((resolve) => setTimeout(resolve, 60));
    const { unchecked } = await around(`mkdir -p hid && git init -q hid/sub && ${FSMONITOR} >> hid/sub/.git/config && chmod 000 hid`);
    expect(unchecked).toEqual([expect.stringContaining(`${path.join(root, 'hid')} could not be read`)]);
  });
});

describe('the codec and the pointers, against git', () => {
  test('byte strings: any bytes come back unchanged; valid UTF-8 is its ordinary string', () => {
    for (let n = 0; n < 2000; n++) {
      const bytes = Buffer.from(Array.from({ length: n % 17 }, () => Math.floor(Math.random() * 256)));
      expect(toBytes(fromBytes(bytes)).equals(bytes)).toBe(true);
    }
    for (const text of ['plain', 'é/日本', '😀 x', '\uFFFD']) expect(fromBytes(Buffer.from(text))).toBe(text);
    expect(printable(fromBytes(Buffer.from([0x6d, 0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80])))).toBe('m\\xff\\xc3(\\xed\\xa0\\x80');
  });

  test('a .git file and a commondir are read as git reads them (line ends at the end, a NUL, bytes that are not UTF-8)', async () => {
    sh(`git commit -q --allow-empty -m x; git worktree add -q ../wt; for d in c2 "c$(printf '\\377')"; do cp -r .git "../$d"; done; mkdir ../w`);
    const git = (args: string[], cwd: string): Buffer | undefined => {
      try {
        return execFileSync('git', args, { cwd, env: env(), stdio: ['ignore', 'pipe', 'ignore'] }).subarray(0, -1);
      } catch {
        return undefined;
      }
    };
    const w = path.join(base, 'w');
    /** Where git found a git directory (`found`, its bytes), the pointer leads there too; where git found none, to none. */
    const sawSame = async (found: Buffer | undefined, from: string, pointer: string | undefined): Promise<void> => {
      const ours = pointer === undefined ? undefined : (await follow(from, pointer, [base])).real;
      if (found === undefined) expect(ours === undefined || !existsSync(toBytes(path.join(ours, 'HEAD')))).toBe(true);
      else expect(ours === undefined ? undefined : printable(ours)).toBe(printable(fromBytes(found)));
    };
    const gitfiles = ['gitdir: ../project/.git\n', 'gitdir: ../project/.git\0junk\n', 'gitdir: ../project/.git\r\n\r\n', 'gitdir: ../project/.git\0\n', 'gitdir: ../project/.git\n\0junk', 'gitdir: ../project/.git ', 'gitdir:../project/.git', 'gitdir: ../c\xff\n'];
    for (const text of gitfiles) {
      const bytes = Buffer.from(text, 'latin1');
      writeFileSync(path.join(w, '.git'), bytes);
      await sawSame(git(['rev-parse', '--absolute-git-dir'], w), w, gitfilePath(bytes));
    }
    const worktreeGitDir = path.join(root, '.git', 'worktrees', 'wt');
    for (const text of ['../../../../c2\0junk\n', '../../../../c2\r\n\r\n', '../../../../c2\n\0junk', '../../../../c2 \n', '../../../../c\xff\n', '../..\n']) {
      const bytes = Buffer.from(text, 'latin1');
      writeFileSync(path.join(worktreeGitDir, 'commondir'), bytes);
      const found = git(['rev-parse', '--git-common-dir'], path.join(base, 'wt'));
      await sawSame(found && toBytes(path.resolve(path.join(base, 'wt'), fromBytes(found))), worktreeGitDir, commondirPath(bytes));
    }
    expect(readFileSync(path.join(worktreeGitDir, 'commondir')).toString()).toBe('../..\n');
  });
});
