/**
 * The class rule behind the credential list (credential-paths.ts). A list of tools' files never
 * ends (every round of review found more), so at each command the home directory is also looked
 * at, to a small depth, and every file whose NAME says it holds a secret or a history is hidden:
 * `~/.config/sometool/api_token`, `~/.secrets`, `~/.local/share/sometool/history.db`, a private
 * key (`*.key`, `*.p8`, `*.p12`, `id_ed25519`, a `.pem` holding a PRIVATE KEY), a dotenv file.
 *
 * What is looked at: the entries of the home itself (not entered: `~/work`, `~/Documents` are the
 * user's own files, left to the permission rules), and each of its dot-directories plus
 * ~/.config, ~/.local/share and ~/.local/state (and XDG homes moved elsewhere) to SCAN_DEPTH
 * levels. Never entered, so what builds need is never hidden: trees of code, packages, caches
 * and toolchains by their directory names (NOT_ENTERED: node_modules, site-packages, lib, bin,
 * registry, repository, caches, toolchains, versions…), a directory of more than MAX_DIR_ENTRIES
 * entries (a cache or a collection, not a tool's configuration), the credential list's own
 * directories (hidden whole already), HIDDEN_EXCEPT's directories (their kept entries, a skill
 * named `secrets-scan`, must stay) and the writable roots (the project: the rules decide there).
 * A directory is hidden only when its whole name is such a word (`secrets/`, `.credentials/`,
 * `keys/`): names with more in them are project and package names in caches
 * (`auth-service-x-py3.12`, `system.identitymodel.tokens.jwt`).
 *
 * Bounded: at most MAX_SCAN_ENTRIES entries are looked at per command (shallowest first, so the
 * home and the tools' own directories come before deep trees), at most MAX_SECRET_NAMED paths
 * hidden, at most MAX_PEM_READS `.pem` files read; beyond, `truncated` (the caller warns once).
 */
import { constants, type Dirent } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Levels looked at below each dot-directory of the home, ~/.config, ~/.local/share and ~/.local/state. */
export const SCAN_DEPTH = 3;
/** Entries looked at per scan, over every directory. */
export const MAX_SCAN_ENTRIES = 20_000;
/** Directories listed per scan (one readdir each). */
export const MAX_SCAN_DIRS = 2_000;
/** A directory (not a root) with more entries is matched but not entered: a cache or a collection of code. */
export const MAX_DIR_ENTRIES = 256;
/** Paths the rule hides per command at most (each is one mount). */
export const MAX_SECRET_NAMED = 256;
/** `.pem` files read per scan to tell a private key from a certificate; beyond, a `.pem` is hidden unread. */
export const MAX_PEM_READS = 64;
/** How much of a `.pem` is read; a larger one is hidden (a certificate bundle is ≈ 220 KiB). */
export const MAX_PEM_BYTES = 1024 * 1024;

/**
 * Directory names never entered or matched: code, packages, caches, toolchains and installed
 * programs, where names like `tokens.py`, `auth/`, `js-tokens` are code and builds read them.
 */
const NOT_ENTERED = new Set([
  'node_modules', 'bower_components', 'site-packages', 'dist-packages', '__pycache__', '.git', '.hg', '.svn',
  'bin', 'sbin', 'lib', 'lib64', 'libexec', 'include', 'src', 'pkg', 'pkgs', 'packages', 'repository', 'registry',
  'cache', 'caches', 'Cache', '_cacache', 'go-build', 'versions', 'toolchains', 'candidates', 'installs', 'jdks',
  'plugins', 'extensions', 'store', 'dists', 'wrapper', 'shims', 'tools', 'vendor', 'envs', 'virtualenvs', 'test', 'tests',
]);

const SEP = String.raw`[._\-\s]`;
/** A word saying "secret" between separators (`.`, `_`, `-`, a space) or the name's ends. */
const SECRET_WORD = new RegExp(
  `(?:^|${SEP})(?:tokens?|secrets?|credentials?|creds|passwords?|passwd|passphrase|apikeys?|api[_-]?keys?|auth|private[_-]?keys?|cookies?)(?:${SEP}|$)`,
  'i',
);
/** `deploy_key`, `signing-key.asc`, `keys.txt`, `key.json`: "key" as the name's last word. */
const KEY_LAST = new RegExp(`(?:^|${SEP})keys?(?:\\.[a-z0-9]+)?$`, 'i');
/** `.python_history`, `repl_history.jl`, `history.db`, `.mycli-history`, `history`. */
const HISTORY_WORD = new RegExp(`(?:^|${SEP})history(?:${SEP}|$)`, 'i');
/** A dotfile ending in hist/history/hst: `.zhistory`, `.Rhistory`, `.histfile`, `.lesshst`. */
const HIST_DOTFILE = /^\.[a-z0-9_-]*h(?:ist|st)(?:ory|file)?$/i;
/** Private keys and key stores by their extension (not `.jks`/`.keystore`: builds sign with ~/.android/debug.keystore). */
const KEY_EXTENSION = /\.(?:key|p8|p12|pfx|ppk|keytab|kdbx|ovpn)$/i;
/** OpenSSH's default key names, anywhere (a copy outside ~/.ssh), not the `.pub` half. */
const SSH_KEY = /^id_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?(?:[._-].*)?$/i;
/**
 * MCP server configurations (`mcp.json`, `mcp_config.json`, `cline_mcp_settings.json`,
 * `claude_desktop_config.json`): each AI tool keeps its servers' `env` and headers, tokens
 * included, in a file of its own named so.
 */
const MCP_CONFIG = new RegExp(`^\\.?(?:[a-z0-9_-]*${SEP})?(?:mcp|claude${SEP}desktop)(?:${SEP}[a-z0-9_-]*)?\\.json$`, 'i');
/** Electron and Chromium stores of live sessions and saved passwords, in any app's directory. */
const SESSION_STORES = new Set(['Login Data', 'Login Data For Account', 'Web Data', 'Local Storage', 'Session Storage', 'IndexedDB']);
/** Whole directory names that say secret or history (see the top: longer names are not matched). */
const SECRET_DIR = /^\.?(?:tokens?|secrets?|credentials?|creds|passwords?|keys|private[_-]?keys?|auth|history)$/i;

export type SecretNameKind = 'secret' | 'key' | 'history' | 'dotenv' | 'pem';

/** What a name says it holds, or undefined; a `.pem` is 'pem' (its content decides). */
export function secretNameKind(name: string, isDirectory: boolean): SecretNameKind | undefined {
  if (isDirectory) {
    if (SESSION_STORES.has(name)) return 'secret';
    if (!SECRET_DIR.test(name)) return undefined;
    return /history/i.test(name) ? 'history' : 'secret';
  }
  if (name.toLowerCase().endsWith('.pub')) return undefined;
  if (SECRET_WORD.test(name) || SESSION_STORES.has(name) || MCP_CONFIG.test(name)) return 'secret';
  if (KEY_LAST.test(name) || KEY_EXTENSION.test(name) || SSH_KEY.test(name)) return 'key';
  if (HISTORY_WORD.test(name) || HIST_DOTFILE.test(name)) return 'history';
  if (name === '.env' || name.startsWith('.env.') || name === '.envrc' || name.startsWith('.envrc.') || /.\.env$/i.test(name)) return 'dotenv';
  if (/\.pem$/i.test(name)) return 'pem';
  return undefined;
}

export interface SecretScanOptions {
  /** Absolute directories looked at to SCAN_DEPTH besides ~/.config, ~/.local/share, ~/.local/state (XDG homes moved elsewhere). */
  extraRoots?: readonly string[];
  /** Absolute directories not entered: hidden whole already, kept on purpose, or writable. */
  skip?: readonly string[];
  /** Tests: smaller bounds. */
  maxEntries?: number;
  maxNamed?: number;
  maxDirs?: number;
  maxPemReads?: number;
}

export interface SecretScan {
  paths: string[];
  /** A bound was reached: entries beyond were not looked at (or not hidden). */
  truncated: boolean;
}

interface Pending {
  dir: string;
  /** Levels still looked at from here (1: this directory's entries only). */
  levels: number;
  /** A root: entered whatever its size. */
  root: boolean;
  /** The home itself: its dot-directories are roots, its other directories are not entered. */
  home?: boolean;
}

/** The files and directories under `homeDir` whose names say they hold a secret or a history (see the top). */
export async function secretNamedPaths(homeDir: string, options: SecretScanOptions = {}): Promise<SecretScan> {
  const maxEntries = options.maxEntries ?? MAX_SCAN_ENTRIES;
  const maxNamed = options.maxNamed ?? MAX_SECRET_NAMED;
  let pemReads = options.maxPemReads ?? MAX_PEM_READS;
  const skip = new Set((options.skip ?? []).map((dir) => path.resolve(dir)));
  const roots = new Set([path.join(homeDir, '.config'), path.join(homeDir, '.local', 'share'), path.join(homeDir, '.local', 'state'), ...(options.extraRoots ?? []).map((dir) => path.resolve(dir))]);
  const visited = new Set<string>();
  const found: string[] = [];
  const maxDirs = options.maxDirs ?? MAX_SCAN_DIRS;
  let seen = 0;
  let listed = 0;
  let truncated = false;

  const matched = async (full: string, entry: Dirent): Promise<boolean> => {
    const kind = secretNameKind(entry.name, entry.isDirectory());
    if (kind !== 'pem') return kind !== undefined;
    if (pemReads <= 0) return true; // unread: hidden rather than guessed
    pemReads -= 1;
    return holdsPrivateKey(full);
  };

  /** Lists `dir` (within the entry budget) and returns the subdirectories to look at next. */
  const visit = async (item: Pending): Promise<Pending[]> => {
    if (listed >= maxDirs) {
      truncated = true;
      return [];
    }
    listed += 1;
    let entries: Dirent[];
    try {
      entries = await readdir(item.dir, { withFileTypes: true });
    } catch {
      return []; // missing, not a directory, not listable: nothing a command could list either
    }
    if (seen + entries.length > maxEntries) {
      truncated = true;
      entries = entries.slice(0, Math.max(0, maxEntries - seen));
    }
    seen += entries.length;
    const next: Pending[] = [];
    const enter = item.root || entries.length <= MAX_DIR_ENTRIES;
    for (const entry of entries) {
      const full = path.join(item.dir, entry.name);
      // A link is matched by its name but never entered (no loops; what it leads to is resolved later).
      const isDirectory = entry.isDirectory();
      if (skip.has(full) || (isDirectory && NOT_ENTERED.has(entry.name) && !roots.has(full))) continue;
      if (await matched(full, entry)) {
        found.push(full);
        continue;
      }
      if (!isDirectory) continue;
      if (roots.has(full) || (item.home && entry.name.startsWith('.'))) next.push({ dir: full, levels: SCAN_DEPTH, root: true });
      else if (!item.home && item.levels > 1 && enter) next.push({ dir: full, levels: item.levels - 1, root: false });
    }
    return next;
  };

  // Breadth first, one level at a time: the shallow entries (a tool's own files) come first.
  let level: Pending[] = [{ dir: homeDir, levels: 1, root: true, home: true }];
  for (const root of roots) if (path.dirname(root) !== homeDir) level.push({ dir: root, levels: SCAN_DEPTH, root: true });
  while (level.length > 0 && !truncated) {
    const fresh = level.filter((item) => !visited.has(item.dir) && !skip.has(item.dir) && (visited.add(item.dir), true));
    level = (await Promise.all(fresh.map(visit))).flat();
  }
  const unique = [...new Set(found)];
  if (unique.length > maxNamed) return { paths: unique.slice(0, maxNamed), truncated: true };
  return { paths: unique, truncated };
}

/**
 * Whether a `.pem` holds a private key (a certificate, a CA bundle a build trusts, stays
 * readable). Opened without blocking (a FIFO does not stall the command); anything but a regular
 * file, anything that cannot be read, or is larger than MAX_PEM_BYTES, counts as a key.
 */
async function holdsPrivateKey(file: string): Promise<boolean> {
  try {
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      if (!(await handle.stat()).isFile()) return true;
      const buffer = Buffer.alloc(MAX_PEM_BYTES + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      return bytesRead > MAX_PEM_BYTES || buffer.subarray(0, bytesRead).includes('PRIVATE KEY');
    } finally {
      await handle.close();
    }
  } catch {
    return true;
  }
}

/** The least time between the starts of two scans of a home (SecretNameScans.refresh). */
export const RESCAN_MS = 2_000;

/**
 * The scan, once per process and then in the background: the first command waits for it (or for
 * the one the sandbox's warm-up began); each later one uses the newest finished scan. The next
 * scan starts after each command (refresh(), once its sweep is done; within RESCAN_MS of the last
 * scan's start, when that interval ends), so a secret-named file made
 * during a session is hidden from the command after the scan that saw it. A scan lists a few
 * hundred directories on a developer's home (tens of ms on a loaded machine): too much to add to
 * every command's start, and, started there, it took its time from the command's own preparation
 * (≈ 40 ms of a bash call with a home of 900 directories). A change of home, skipped directories
 * or roots scans anew at once.
 */
export class SecretNameScans {
  private last: { key: string; homeDir: string; options: SecretScanOptions; result: Promise<SecretScan>; started: number } | undefined;
  private refreshing = false;
  /** A refresh asked for within RESCAN_MS of the last start, waiting for the interval's end. */
  private deferred = false;

  constructor(
    private readonly scan: typeof secretNamedPaths = secretNamedPaths,
    private readonly now: () => number = () => performance.now(),
    private readonly later: (run: () => void, ms: number) => void = (run, ms) => setTimeout(run, ms).unref(),
  ) {}

  get(homeDir: string, options: SecretScanOptions = {}): Promise<SecretScan> {
    const key = JSON.stringify([homeDir, [...(options.skip ?? [])].sort(), [...(options.extraRoots ?? [])].sort()]);
    if (this.last?.key !== key) {
      const result = this.scan(homeDir, options);
      this.last = { key, homeDir, options, result, started: this.now() };
      // One that failed is not kept: the next command scans again.
      result.catch(() => {
        if (this.last?.result === result) this.last = undefined;
      });
    }
    return this.last.result;
  }

  /**
   * Starts the next scan of the last home asked for (one at a time, and not within RESCAN_MS of
   * the start of the one in use: commands run back to back would otherwise each run beside a
   * scan; asked for sooner, it starts when the interval ends, so every command is followed by a
   * scan within RESCAN_MS however long the session then stays idle); the calls after it has
   * finished get it.
   */
  refresh(): void {
    const last = this.last;
    if (!last || this.refreshing) return;
    const wait = RESCAN_MS - (this.now() - last.started);
    if (wait > 0) {
      if (this.deferred) return;
      this.deferred = true;
      this.later(() => {
        this.deferred = false;
        this.refresh();
      }, wait);
      return;
    }
    this.refreshing = true;
    const started = this.now();
    void this.scan(last.homeDir, last.options)
      .then((fresh) => {
        if (this.last?.key === last.key) this.last = { ...last, result: Promise.resolve(fresh), started };
      })
      .catch(() => undefined) // the previous scan stays in use
      .finally(() => {
        this.refreshing = false;
      });
  }
}
