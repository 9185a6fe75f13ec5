/**
 * What a command-line operand points at, for the blacklist: `/`, the home directory, a system
 * directory, a block device, a critical file. Operands come unquoted from the shell parser, with
 * expansions as written (`$HOME`, `${HOME}`, `~`). Nothing here touches the file system: the
 * blacklist judges the text the shell will see, independent of the machine it runs on.
 */
import path from 'node:path';

/** Stands for the home directory in normalised paths (`~`, `~user`, `$HOME`, `${HOME}`, the real home). */
export const HOME = '/\u0000home';

/** Where the command runs: relative operands resolve against `cwd` (undefined after `cd $X`). */
export interface Where {
  cwd: string | undefined;
  /** The real home directory, so that `rm -rf *` run in it counts as deleting the home directory. */
  home: string | undefined;
  /** Where destructive verbs may act (the project); absent: only the ten patterns are checked. */
  inside?: Inside;
  /**
   * Another segment of the line that may make or move a link before this one runs
   * (sdk/shell-command/link-makers.ts): no path is then a literal path inside the project.
   */
  linkedBy?: string;
}

/** Where destructive verbs may act: the project root and the additional directories (real paths). */
export interface Inside {
  roots: readonly string[];
}

/**
 * Normalises an operand to an absolute POSIX path (`//`, `/./`, `/..`, trailing slashes; home
 * spellings → HOME; relative to `where.cwd`), or returns it unchanged when it is relative and the
 * directory is unknown. `emptyVariables` replaces every other `$VAR`/`${VAR}` with nothing
 * (`"$DIR"/` → `/`).
 */
export function normaliseOperand(operand: string, where: Where, emptyVariables = false): string {
  let value = operand;
  const home = /^(?:~[A-Za-z0-9_.-]*|\$HOME|\$\{HOME\})(?=\/|$)/.exec(value);
  if (home) value = HOME + value.slice(home[0].length);
  if (emptyVariables) value = value.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*\}|\$[A-Za-z_][A-Za-z0-9_]*/g, '');
  if (!value.startsWith('/')) {
    if (where.cwd === undefined || value === '') return value;
    value = `${where.cwd}/${value}`;
  }
  let normal = path.posix.normalize(value);
  if (normal.length > 1 && normal.endsWith('/')) normal = normal.slice(0, -1);
  const realHome = where.home;
  if (realHome && realHome !== '/' && (normal === realHome || normal.startsWith(`${realHome}/`))) normal = HOME + normal.slice(realHome.length);
  return normal;
}

/** Brace expansion (`/{,}` → `/`, `/`; `/{etc,usr}` → `/etc`, `/usr`), bounded. */
export function expandBraces(word: string, limit = 64): string[] {
  if (word.length > 1024) return [word];
  const match = /\{([^{}]*,[^{}]*)\}/.exec(word);
  if (!match) return [word];
  const results: string[] = [];
  for (const choice of match[1]!.split(',')) {
    for (const expanded of expandBraces(word.slice(0, match.index) + choice + word.slice(match.index + match[0].length), limit)) {
      if (results.length >= limit) return results;
      results.push(expanded);
    }
  }
  return results;
}

/** Every path an operand may stand for: brace alternatives, and with unset variables empty. */
export function operandForms(operand: string, where: Where): string[] {
  const forms = new Set<string>();
  for (const alternative of expandBraces(operand)) {
    forms.add(normaliseOperand(alternative, where));
    // `"$DIR"/` is `/` when DIR is empty or unset; `${DIR:?}` aborts instead, so it is safe.
    if (/\$\{?[A-Za-z_]/.test(alternative) && !alternative.includes(':?')) forms.add(normaliseOperand(alternative, where, true));
  }
  return [...forms];
}

/** `.`, `..`, `*`, `../..`, `./*`: "everything here", which matters when "here" is unknown. */
export function isEverythingHere(operand: string): boolean {
  return operand !== '' && operand.split('/').every((part) => part === '' || part === '.' || part === '..' || GLOB_ONLY.test(part));
}

/** Top-level directories whose recursive deletion wrecks the system. */
const SYSTEM_DIRECTORIES = [
  '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/opt', '/proc', '/root', '/sbin', '/srv',
  '/sys', '/usr', '/var', '/Users', '/System', '/Library', '/Applications',
];

const GLOB_ONLY = /^\.?[*?]+$/;

/**
 * `/`, the home directory, a top-level system directory, or a glob over all of `/` or the home
 * directory (`/*`, `/u*`, `~/*`, `~/.*`).
 */
export function catastrophicDeleteTarget(normal: string): string | undefined {
  if (normal === '/') return '/';
  if (normal === HOME) return 'the home directory';
  if (SYSTEM_DIRECTORIES.includes(normal)) return normal;
  if (/^\/[^/]+$/.test(normal) && /[*?[]/.test(normal)) return `${normal} (everything under /)`;
  if (normal.startsWith(`${HOME}/`) && GLOB_ONLY.test(normal.slice(HOME.length + 1))) return 'everything in the home directory';
  if (SYSTEM_DIRECTORIES.some((dir) => normal.startsWith(`${dir}/`) && GLOB_ONLY.test(normal.slice(dir.length + 1)))) return normal;
  return undefined;
}

/** Directories a recursive world-writable chmod must never touch (and everything beneath them). */
const CHMOD_PROTECTED = ['/etc', '/bin', '/sbin', '/usr', '/var', '/boot', '/lib', '/lib32', '/lib64', '/opt', '/root', '/dev', '/sys', '/proc', '/srv'];

export function protectedChmodTarget(normal: string): boolean {
  if (normal === '/' || normal === HOME || /^\/[*?]+$/.test(normal)) return true;
  if (normal.startsWith(`${HOME}/`) && GLOB_ONLY.test(normal.slice(HOME.length + 1))) return true;
  return CHMOD_PROTECTED.some((dir) => normal === dir || normal.startsWith(`${dir}/`));
}

const BLOCK_DEVICE = /^\/dev\/(?:sd|hd|nvme|disk|rdisk|xvd|vd|mmcblk|loop|ram|pmem|md|dm-|mapper\/|nbd|zram|sr|mtdblock|rbd|fd\d|root$)/;

export function isBlockDevice(normal: string): boolean {
  return BLOCK_DEVICE.test(normal);
}

/** Device files that are harmless to write to. */
const HARMLESS_DEVICES = /^\/dev\/(?:null|zero|full|random|urandom|stdout|stderr|stdin|tty|fd\/\d+|shm\/.*|pts\/\d+)$/;

export function isDeviceFile(normal: string): boolean {
  return normal.startsWith('/dev/') && !HARMLESS_DEVICES.test(normal);
}

const CRITICAL_FILES = ['/etc/passwd', '/etc/shadow', '/etc/sudoers', '/etc/group', '/etc/gshadow'];

/** /etc/passwd, /etc/shadow, /etc/sudoers (+ sudoers.d), /etc/group, /etc/gshadow, /boot and below. */
export function criticalFile(normal: string): boolean {
  if (CRITICAL_FILES.includes(normal)) return true;
  if (normal === '/etc/sudoers.d' || normal.startsWith('/etc/sudoers.d/')) return true;
  return normal === '/boot' || normal.startsWith('/boot/');
}

/** `mv passwd /etc/` lands on /etc/passwd. */
export function landsOnCriticalFile(source: string, destinationDir: string): boolean {
  const base = path.posix.basename(source);
  return base !== '' && base !== '.' && base !== '..' && criticalFile(path.posix.normalize(`${destinationDir}/${base}`));
}
