/**
 * The mounts a command gets, checked inside the sandbox before it starts.
 *
 * bubblewrap takes the paths of its mounts and resolves them when it sets the sandbox up, some
 * milliseconds after MewCode planned them. Another sandboxed command running at that moment (a
 * parallel call, a background sub-agent's) can write the same project: swap a directory that is
 * bound onto itself (`.git`, a submodule's git directory, a protected path) for a symbolic link.
 * bubblewrap then follows the link: the source becomes whatever it points at (the user's home,
 * bound read-write) and the destination lands elsewhere (a read-only protection moved off the
 * path it protects).
 *
 * So the sandbox starts the command through a small POSIX shell step that reads
 * /proc/self/mountinfo and runs the command only if every planned mount is there: each bind of a
 * path onto itself with the source it was planned from (the same device, the same path within
 * that file system, as the host's mountinfo gives them), and each other mount (an empty directory
 * or /dev/null over a path, a tmpfs) at its path. Anything else ends the call with exit 125 and
 * a message: nothing has run. Cost: one /bin/sh and a read of mountinfo per command.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { MountPlan } from './mount-plan.js';

export interface MountEntry {
  /** major:minor of the file system. */
  dev: string;
  /** The path within that file system that is the root of the mount (unescaped). */
  root: string;
  /** Where it is mounted (unescaped). */
  mountPoint: string;
}

/** mountinfo's octal escapes of space, tab, newline and backslash. */
export function escapeMountPath(value: string): string {
  return value.replace(/[\\ \t\n]/g, (char) => `\\${char.charCodeAt(0).toString(8).padStart(3, '0')}`);
}

function unescapeMountPath(value: string): string {
  return value.replace(/\\([0-7]{3})/g, (_match, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

export function parseMountInfo(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    if (fields.length < 5) continue;
    entries.push({ dev: fields[2]!, root: unescapeMountPath(fields[3]!), mountPoint: unescapeMountPath(fields[4]!) });
  }
  return entries;
}

/** This process's mounts (where bubblewrap starts from); empty where there is no /proc. */
export function hostMounts(): MountEntry[] {
  try {
    return parseMountInfo(readFileSync('/proc/self/mountinfo', 'utf8'));
  } catch {
    return [];
  }
}

/** The mounts by mount point: of mounts stacked on one point (listed in order), the top one, the last. */
export function mountTable(mounts: readonly MountEntry[]): ReadonlyMap<string, MountEntry> {
  return new Map(mounts.map((mount) => [mount.mountPoint, mount]));
}

/** Where `target` (a real path) comes from, looked up in `table` (mountTable): its file system and its path within it; undefined when no mount holds it. */
export function sourceOf(target: string, table: ReadonlyMap<string, MountEntry>): { dev: string; root: string } | undefined {
  // The longest mount point that holds it: the path itself, then each directory above it (a
  // lookup per level, where comparing with every mount took most of a command's preparation).
  const resolved = path.resolve(target);
  let best: MountEntry | undefined;
  for (let at = resolved; ; at = path.dirname(at)) {
    best = table.get(at);
    if (best || at === path.dirname(at)) break;
  }
  if (!best) return undefined;
  const rest = best.mountPoint === '/' ? resolved : resolved.slice(best.mountPoint.length);
  const root = best.root === '/' ? rest || '/' : `${best.root}${rest}`;
  return { dev: best.dev, root };
}

/**
 * What the check looks for in mountinfo, as mountinfo spells it: ` <dev> <root> <mount point> r`
 * for a path bound onto itself (its source known: the same file system, the same path within
 * it), ` <mount point> r` for the rest (an empty directory, /dev/null or a tmpfs over a path).
 * Each is followed in the file by `o,` or `w,` (the mount options), which no other field can be.
 */
export function expectedMounts(plan: MountPlan, mounts: readonly MountEntry[], extra: { binds?: readonly { source: string; target: string }[]; emptyDir?: string } = {}): string[] {
  const keys = new Set<string>();
  const table = mountTable(mounts);
  const bound = (source: string, target: string): void => {
    const from = sourceOf(source, table);
    keys.add(from ? ` ${from.dev} ${escapeMountPath(from.root)} ${escapeMountPath(target)} r` : ` ${escapeMountPath(target)} r`);
  };
  for (const target of [...plan.writable, ...plan.pinned, ...(plan.homeGuard ? [plan.homeGuard.home, ...plan.homeGuard.writableEntries] : []), ...plan.readOnly]) bound(target, target);
  // Binds from elsewhere (the private /tmp, the proxy's socket, allowed sockets), and the empty
  // directory over each blocked path: from the planned source too.
  for (const { source, target } of extra.binds ?? []) bound(source, target);
  for (const target of plan.blocked) {
    if (extra.emptyDir !== undefined) bound(extra.emptyDir, target);
    else keys.add(` ${escapeMountPath(target)} r`);
  }
  for (const target of [...(plan.rebuilt ?? []).map((folder) => folder.dir), ...plan.hiddenDirs, ...plan.hiddenFiles]) keys.add(` ${escapeMountPath(target)} r`);
  return [...keys];
}

/** The exit status of a command whose sandbox was not set up as planned (nothing ran). */
export const MOUNT_CHECK_FAILED = 125;

/** Reads mountinfo into $mewcode_all: bash in one read (it reads a seekable file in blocks), a POSIX sh line by line. */
const READ_ALL = {
  bash: "IFS= read -r -d '' mewcode_all < /proc/self/mountinfo",
  sh: 'mewcode_all=; while IFS= read -r mewcode_line; do mewcode_all="$mewcode_all$mewcode_line|"; done < /proc/self/mountinfo',
};

/**
 * The check's variables have names of their own: a shell exports a variable that came from the
 * environment, so one named like the command's own (`all`) would reach the command changed.
 * The places are compared byte for byte in the C locale: in a UTF-8 one bash matches each pattern
 * character by character (≈ 4 ms of a command's start for 40 mounts, against none in C), and a
 * path that is not valid UTF-8 is matched as the bytes it is. The command gets its own locale back.
 */
const checkScript = (read: string): string =>
  [
    read,
    'mewcode_locale_set=${LC_ALL+1} mewcode_locale=${LC_ALL-}',
    'LC_ALL=C',
    'for mewcode_want; do',
    '  if [ "$mewcode_want" = -- ]; then',
    '    shift',
    '    if [ -n "$mewcode_locale_set" ]; then LC_ALL=$mewcode_locale; else unset LC_ALL; fi',
    '    exec "$@"',
    '  fi',
    '  case "$mewcode_all" in',
    '    *"$mewcode_want"[ow],*) shift ;;',
    `    *) printf '%s\n' "mewcode: the sandbox was not set up as planned (no mount \${mewcode_want% r} found): a path changed while it was being mounted, most likely by another sandboxed command running in the project at the same time. Nothing was run; run the command again." >&2; exit ${MOUNT_CHECK_FAILED} ;;`,
    '  esac',
    'done',
    `exit ${MOUNT_CHECK_FAILED}`,
  ].join('\n');

/** argv that runs `argv` inside the sandbox only once every expected mount is found there; `shell` checks (bash, else /bin/sh). */
export function mountCheckedArgv(expected: readonly string[], argv: readonly string[], shell: string): string[] {
  const bash = shell.endsWith('/bash');
  // bash reads no startup file: --norc, or it would read ~/.bashrc when its stdin is a socket (an
  // MCP server's pipes are socket pairs) and its errors would end the check; POSIX mode, or a
  // BASH_ENV in the command's environment would run before the check. A POSIX sh reads ENV only
  // when interactive.
  return [...(bash ? [shell, '--norc', '--posix'] : ['/bin/sh']), '-c', checkScript(bash ? READ_ALL.bash : READ_ALL.sh), 'mewcode-mount-check', ...expected, '--', ...argv];
}
