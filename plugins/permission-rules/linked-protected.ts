/**
 * Writes that reach a protected folder through a link, for the file tools. A repository may commit
 * `packages/web/.opencode -> ../../shared/opencode`: a write to `shared/opencode/plugin/fmt.js`
 * names no protected folder, as written or resolved, yet opencode started in `packages/web` imports
 * it. So the project is walked for every entry of a protected name (`.git`, `.mewcode*`, `.claude`,
 * `.mcp.json`, the editors' and other agents' folders of sdk/host-tool-files.ts), at any depth,
 * that is a link — its real target (dangling links followed) is then as protected as the entry —
 * and for every `.git` file (the git directory it points to, and that one's `commondir`) and every
 * `commondir` inside a protected folder (a nested repository's `.git`, a module's); a link
 * of a toolchain file's name (`.tool-versions -> ../shared/versions`) has its target judged by
 * what the write would leave there, as the file itself would be, and a file written below the
 * target of a toolchain folder's link (`.cargo -> ../shared/cargo`) as the same file below the link. A link
 * found inside such a target, or inside a protected folder (`.claude/commands -> ../cmds`), leads
 * to protected files too, as a target outside the project holding links does: both are followed,
 * within the same bound. The sandbox's sweep judges a linked settings folder the same way after a
 * command (sandbox-os/settings-sweep.ts follows the link); its walker (git-walk.ts) belongs to that
 * plugin, which this one may not import (no plugin imports another), so this is the rules layer's
 * own, synchronous and smaller: names and links only.
 *
 * The walk never follows a link to enter a directory, skips `node_modules` (as the sweep does: what
 * an agent or editor reads is not there), and lists at most MAX_LINK_WALK_DIRS directories: past
 * that it cannot say no link leads to the written file, and the write asks (fail closed). A
 * directory that cannot be listed is passed over (a volume another user owns): the user's own
 * tools cannot list it either.
 *
 * A write checks the walk again, but walks again only when the project changed where it looked
 * (a session makes dozens of edits; a walk of a mid-sized project takes 50–200 ms, at the bound
 * over a second, on the thread that runs everything). The walk keeps the identity and change time
 * (ctime: set by the kernel at every change, never set back by a program) of each directory it
 * listed and each `.git` or `commondir` file it read, and each link it resolved with where it
 * led. A later check stats those and resolves those links again: a link or folder made, removed,
 * renamed or retargeted anywhere it looked changes its directory's ctime, so nothing another
 * process did since (a sandboxed command, an MCP server, the user) is missed. Change times come
 * from a coarse clock, so a walk that saw a time within RACY_NS of its own start is not kept:
 * a second change in the same tick would leave that time as it was.
 */
import { closeSync, lstatSync, openSync, readdirSync, readSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { isPathWithin } from '../../types/path-within.js';
import { hostSettingsFor, hostToolchainFileFor, isToolchainFolderName, mayBeHostToolchainFile } from '../../sdk/host-tool-files.js';
import { resolveRealSync } from '../../sdk/path-containment.js';
import { forms, protectedContent, protectedPath, relativeInside, type ProtectedHit, type ProtectedScope } from './protected-paths.js';

/** Directories listed per check (the project's, and those of link targets outside it). */
export const MAX_LINK_WALK_DIRS = 20_000;

/** Skipped by the walk, as by the sandbox's sweep. */
const SKIPPED = 'node_modules';

/** MewCode's and Claude Code's names; the other tools' come from sdk/host-tool-files.ts. */
const OWN_NAMES = new Set(['.git', '.mewcode', '.mewcode.yaml', '.mewcode.yml', '.mewcode.json', '.claude', '.mcp.json']);

/** Compared without case, as every protected name is (the project may sit on a filesystem that ignores it). */
const isProtectedName = (name: string): boolean => OWN_NAMES.has(name.toLowerCase()) || hostSettingsFor(name) !== undefined;

interface Reach {
  /** A real path whose content is protected. */
  real: string;
  /** The protected entry of the project that leads there. */
  via: string;
}

interface Walk {
  reaches: Reach[];
  /** Links of a toolchain file's name (`.tool-versions -> shared/versions`): their target is judged by content as they are. */
  toolchain: Reach[];
  /** Links of a toolchain folder's name (`.cargo -> shared/cargo`): a file written below the target is judged by content as the same file below the link. */
  toolchainDirs: Reach[];
  /** The bound was hit: some directory was not listed. */
  truncated: boolean;
}

/** A directory listed or a small file read by the walk, as it was then (see the module comment). */
interface Seen {
  file: string;
  dev: bigint;
  ino: bigint;
  ctimeNs: bigint;
}

/** Coarser than any file system's clock tick: a walk that saw a change time this recent is not reused. */
export const RACY_NS = 100_000_000n;

interface Kept {
  root: string;
  maxDirs: number;
  walk: Walk;
  seen: Seen[];
  resolved: { link: string; real: string | undefined }[];
}

/** The last walk, when it may be reused (one project per process: the kernel's). */
let kept: Kept | undefined;

function seenNow(file: string): Seen {
  try {
    const info = lstatSync(file, { bigint: true, throwIfNoEntry: false });
    if (info) return { file, dev: info.dev, ino: info.ino, ctimeNs: info.ctimeNs };
  } catch {
    // unreadable: kept as missing, so that becoming readable counts as a change
  }
  return { file, dev: -1n, ino: -1n, ctimeNs: -1n };
}

const unchanged = (then: Seen): boolean => {
  const now = seenNow(then.file);
  return now.dev === then.dev && now.ino === then.ino && now.ctimeNs === then.ctimeNs;
};

function realOf(file: string): string | undefined {
  try {
    return resolveRealSync(file);
  } catch {
    return undefined; // a loop or an unreadable ancestor: nothing can be read through it
  }
}

/** The first bytes of a small file (a `.git` file, a `commondir`), or undefined. */
function head(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(4096);
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** What the walk reads, noted so that a later check can tell whether it still holds. */
interface Noting {
  real(file: string): string | undefined;
  head(file: string): string | undefined;
}

/** Where a `.git` file sends git: its `gitdir:` (relative to the file's folder) and that directory's `commondir`. */
function gitfileTargets(file: string, note: Noting): string[] {
  const pointer = /^gitdir: *(.+?)\r?\n?$/m.exec(note.head(file) ?? '')?.[1];
  if (pointer === undefined) return [];
  const gitDir = note.real(path.resolve(path.dirname(file), pointer));
  if (gitDir === undefined) return [];
  const common = note.head(path.join(gitDir, 'commondir'))?.split(/\r?\n/)[0];
  const commonDir = common ? note.real(path.resolve(gitDir, common)) : undefined;
  return commonDir === undefined ? [gitDir] : [gitDir, commonDir];
}

/**
 * Every real path a protected entry of the project leads to through a link or a `.git` file
 * (`root` is the project's real path), walking at most `maxDirs` directories.
 */
export function linkedReaches(root: string, maxDirs = MAX_LINK_WALK_DIRS): Walk {
  if (kept && kept.root === root && kept.maxDirs === maxDirs && kept.seen.every(unchanged) && kept.resolved.every(({ link, real }) => realOf(link) === real)) return kept.walk;
  kept = undefined;
  const startedNs = BigInt(Date.now()) * 1_000_000n;
  const seen: Seen[] = [];
  const resolved: Kept['resolved'] = [];
  const note: Noting = {
    real: (file) => {
      const real = realOf(file);
      resolved.push({ link: file, real });
      return real;
    },
    head: (file) => {
      seen.push(seenNow(file));
      return head(file);
    },
  };
  const reaches: Reach[] = [];
  const toolchain: Reach[] = [];
  const toolchainDirs: Reach[] = [];
  /** Links met outside protected folders: protected once found inside a reach (resolved then). */
  const links: string[] = [];
  const walked: string[] = [];
  let listed = 0;
  let truncated = false;

  const walk = (start: string, protectedBy: string | undefined): void => {
    walked.push(start);
    let level: { dir: string; by: string | undefined }[] = [{ dir: start, by: protectedBy }];
    while (level.length > 0) {
      const next: typeof level = [];
      for (const { dir, by } of level) {
        if (++listed > maxDirs) {
          truncated = true;
          return;
        }
        seen.push(seenNow(dir)); // before the listing: a change while it is read shows as one
        let children: Dirent[];
        try {
          children = readdirSync(dir, { withFileTypes: true });
        } catch {
          continue;
        }
        for (const child of children) {
          const full = path.join(dir, child.name);
          const inside = by ?? (isProtectedName(child.name) ? full : undefined);
          if (child.isSymbolicLink()) {
            if (mayBeHostToolchainFile(child.name) && hostToolchainFileFor(path.relative(root, full).split(path.sep).join('/'))) {
              const real = note.real(full);
              if (real !== undefined) toolchain.push({ real, via: full });
            } else if (isToolchainFolderName(child.name)) {
              const real = note.real(full);
              if (real !== undefined) toolchainDirs.push({ real, via: full });
            }
            if (inside === undefined) links.push(full);
            else {
              const real = note.real(full);
              if (real !== undefined) reaches.push({ real, via: inside });
            }
          } else if (child.isDirectory()) {
            if (child.name !== SKIPPED) next.push({ dir: full, by: inside });
          } else if (child.name.toLowerCase() === '.git') {
            for (const real of gitfileTargets(full, note)) reaches.push({ real, via: full });
          } else if (inside !== undefined && child.name.toLowerCase() === 'commondir') {
            // A git directory's commondir (a nested repository's, a module's): where git reads its config and hooks.
            const common = note.head(full)?.split(/\r?\n/)[0];
            const real = common ? note.real(path.resolve(dir, common)) : undefined;
            if (real !== undefined) reaches.push({ real, via: full });
          }
        }
      }
      level = next;
    }
  };

  walk(root, undefined);
  // Until nothing new is reached: a link inside a reach leads on; a reach outside every walked tree may hold links.
  for (let done = 0; done < reaches.length && !truncated; done++) {
    const reach = reaches[done]!;
    for (let i = links.length - 1; i >= 0; i--) {
      if (!isPathWithin(reach.real, links[i]!)) continue;
      const real = note.real(links.splice(i, 1)[0]!);
      if (real !== undefined) reaches.push({ real, via: reach.via });
    }
    // An ancestor of a walked tree already protects all of it (every write there asks); a tree inside one was walked.
    if (!walked.some((tree) => isPathWithin(tree, reach.real) || isPathWithin(reach.real, tree))) walk(reach.real, reach.via);
  }
  const found: Walk = { reaches, toolchain, toolchainDirs, truncated };
  if (seen.every((entry) => entry.ctimeNs < startedNs - RACY_NS)) kept = { root, maxDirs, walk: found, seen, resolved };
  return found;
}

/**
 * Whether a file tool's write to `absolute` lands in what a protected entry of the project leads
 * to through a link (judged as a write to that entry), is the target of a toolchain file's link
 * and would leave it naming a program or a path (judged as that file, by `content`, as
 * protectedContent judges), or cannot be ruled out (the walk's bound).
 */
export function linkedProtectedPath(absolute: string, scope: ProtectedScope, content: () => string | undefined): ProtectedHit | undefined {
  const root = realOf(scope.projectRoot) ?? path.resolve(scope.projectRoot);
  const { reaches, toolchain, toolchainDirs, truncated } = linkedReaches(root);
  const shown = (via: string): string => relativeInside(root, via) ?? via;
  for (const candidate of forms(absolute)) {
    const reach = reaches.find((r) => isPathWithin(r.real, candidate));
    if (reach !== undefined) {
      const what = protectedPath(reach.via, scope)?.what ?? (path.basename(reach.via).toLowerCase() === '.git' ? 'a git directory' : 'a protected folder');
      return { path: absolute, what: `${what}, reached through ${shown(reach.via)}, which leads there` };
    }
    for (const link of toolchain.filter((t) => t.real === candidate)) {
      const hit = protectedContent(link.via, content);
      if (hit) return { ...hit, path: absolute, what: `${hit.what}, reached through ${shown(link.via)}, which leads there` };
    }
    for (const link of toolchainDirs.filter((t) => t.real !== candidate && isPathWithin(t.real, candidate))) {
      const hit = protectedContent(path.join(link.via, path.relative(link.real, candidate)), content);
      if (hit) return { ...hit, path: absolute, what: `${hit.what}, reached through ${shown(link.via)}, which leads there` };
    }
  }
  if (truncated) {
    return { path: absolute, what: `a file that may be reached through a link from a protected folder: the project has more than ${MAX_LINK_WALK_DIRS} folders to look through for such links` };
  }
  return undefined;
}
