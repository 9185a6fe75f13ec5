/**
 * bubblewrap's command line for one sandboxed command (pure). Mounts are applied in order, so
 * a later one wins where paths nest:
 *
 *   --ro-bind / /                      the whole filesystem, read-only (submounts too)
 *   --dev /dev, --proc /proc           a minimal /dev and a procfs of the new PID namespace: the
 *                                      host's /proc would offer /proc/<pid>/root of host processes,
 *                                      a writable path to the host's root; /proc/sys read-only
 *   --tmpfs /run                       hides host sockets (docker.sock, D-Bus, the user's runtime dir);
 *                                      a read-only filesystem does not stop connect() on a socket file
 *   --bind <private> /tmp              the session's private temporary directory
 *   --tmpfs H, --ro-bind-try H/e H/e   a folder of the home holding hidden files, rebuilt: its other
 *                                      entries bound back (links made again), read-only at the end
 *                                      (rebuilt-folders.ts)
 *   --bind R R                         each writable root
 *   --bind R/.git R/.git               pinned: a mount point cannot be renamed or removed, so no
 *                                      replacement `.git` with a hostile config can be put in its place
 *                                      (also each submodule's and worktree's git directory, parents first)
 *   --ro-bind P P                      protected paths that exist
 *   --ro-bind <empty> P                protected paths that do not exist (mount point made by the caller)
 *   --tmpfs D, --remount-ro D          deny-read directories (read-only once the sockets below are bound)
 *   --ro-bind /dev/null F              deny-read files
 *   --ro-bind S S                      unix sockets the user allowed (sandbox.allow_unix_sockets), back
 *                                      where /run, /tmp or a deny-read directory hid them
 *   --ro-bind F F                      files handed to the command (a hook's transcript: handed-files.ts),
 *                                      and the session's own saved outputs folder (own-spill-folder.ts)
 *   --seccomp 3                        seccomp-filter.ts: no keyring, no new unix socket unless allowed
 *
 * Namespaces: PID (with --die-with-parent: nothing started inside outlives the sandbox), IPC,
 * and network unless the user allowed it; no capabilities; --new-session so a command cannot push keystrokes into
 * the user's terminal (TIOCSTI). Hard links across the boundary fail: link() between two mounts
 * is EXDEV, whatever the permissions.
 */
import path from 'node:path';
import type { MountPlan } from './mount-plan.js';

export interface BwrapInvocation {
  plan: MountPlan;
  /** Host directory bound at /tmp. */
  privateTmp: string;
  /** Host directory that stays empty: the read-only source for blocked paths. */
  emptyDir: string;
  network: boolean;
  /** The domain proxy's unix socket, bound into the sandbox (network by domain). */
  proxySocket?: { outside: string; inside: string };
  cwd: string;
  argv: readonly string[];
  /** The seccomp filter is readable on SECCOMP_FD (the caller opens it there: see seccompLaunch). */
  seccomp?: boolean;
  /** Unix sockets (or directories of them) the user allowed, bound back in read-only (connect() still works). */
  unixSockets?: readonly string[];
  /** Files (and the session's own spill folder) handed to the command to read (handed-files.ts, own-spill-folder.ts), bound back read-only where a deny-read directory hid them. */
  handedFiles?: readonly string[];
}

/** The descriptor bubblewrap reads the seccomp program from. */
export const SECCOMP_FD = 3;

/**
 * How the sandbox program is started: a shell that closes every descriptor but stdin, stdout and
 * stderr, opens the seccomp filter (when there is one) on SECCOMP_FD, and replaces itself with
 * the program (same process, so process groups, signals and exit codes are unchanged).
 * MewCode opens its own descriptors close-on-exec, but one its parent left open (a CI runner's,
 * an editor's, a wrapper's `200<secret`) would pass through bubblewrap into the sandbox, past
 * the hidden paths and the read-only mounts. bash closes any number (it is looked for at fixed
 * paths, never on PATH: this shell runs outside the sandbox); a POSIX sh can name only 3–9.
 */
export function sandboxLaunch(binary: string, args: readonly string[], filterFile: string | undefined, shell: string): { file: string; args: string[] } {
  const bash = shell.endsWith('/bash');
  const close = bash ? CLOSE_ANY : CLOSE_SINGLE_DIGIT;
  const filter = filterFile === undefined ? '' : ` ${SECCOMP_FD}<"$0"`;
  // --norc: bash reads ~/.bashrc when its stdin is a socket (an MCP server's pipes are socket pairs).
  return { file: shell, args: [...(bash ? ['--norc'] : []), '-c', `${close} exec "$@"${filter}`, filterFile ?? 'mewcode-sandbox', binary, ...args] };
}

// Its variables have names of their own: a shell exports a variable that came from the
// environment, so a loop over `f` would hand bubblewrap, and the command, an `f` of its making.
const CLOSE_ANY = 'for mewcode_fd in /dev/fd/*; do mewcode_fd=${mewcode_fd##*/}; case $mewcode_fd in 0|1|2) ;; *) eval "exec $mewcode_fd>&-" ;; esac; done;';
const CLOSE_SINGLE_DIGIT = 'exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-;';

/** The shell sandboxLaunch uses: bash at a fixed path, else the POSIX sh. */
export const LAUNCH_SHELLS = ['/bin/bash', '/usr/bin/bash', '/bin/sh'] as const;

/**
 * The namespaces, capabilities and base filesystem, shared by the probe and every call.
 * `--cap-drop ALL`: run as root (CI, containers) bubblewrap keeps every capability without it,
 * and a command could simply `mount -o remount,rw /`. Root inside still owns the kernel's
 * root-owned files, so /proc/sys (core_pattern…) and /proc/sysrq-trigger are covered read-only.
 */
export function bwrapBaseArgs(network: boolean): string[] {
  return [
    '--die-with-parent',
    '--new-session',
    '--unshare-pid',
    '--unshare-ipc',
    ...(network ? [] : ['--unshare-net']),
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--ro-bind-try',
    '/proc/sys',
    '/proc/sys',
    '--ro-bind-try',
    '/proc/sysrq-trigger',
    '/proc/sysrq-trigger',
  ];
}

export function bwrapArgs(invocation: BwrapInvocation): string[] {
  const { plan, network } = invocation;
  const args = [...bwrapBaseArgs(network), '--tmpfs', '/dev/shm', '--tmpfs', '/run'];
  // With the network on, name resolution may go through systemd-resolved's stub under /run.
  if (network) args.push('--ro-bind-try', '/run/systemd/resolve', '/run/systemd/resolve');
  if (invocation.proxySocket) args.push('--bind', invocation.proxySocket.outside, invocation.proxySocket.inside);
  args.push('--bind', invocation.privateTmp, '/tmp');
  // Folders of the home holding hidden files: an empty tmpfs, the other entries bound back.
  for (const { dir, entries } of plan.rebuilt ?? []) {
    args.push('--tmpfs', dir);
    for (const { name, link } of entries) {
      const target = path.join(dir, name);
      args.push(...(link === undefined ? ['--ro-bind-try', target, target] : ['--symlink', link, target]));
    }
  }
  for (const dir of plan.writable) args.push('--bind', dir, dir);
  for (const dir of plan.pinned) args.push('--bind', dir, dir);
  // MewCode started in the home (or above): the home read-only, its entries but the dotfiles writable again.
  if (plan.homeGuard) args.push('--ro-bind', plan.homeGuard.home, plan.homeGuard.home, ...plan.homeGuard.writableEntries.flatMap((entry) => ['--bind', entry, entry]));
  for (const target of plan.readOnly) args.push('--ro-bind', target, target);
  for (const target of plan.blocked) args.push('--ro-bind', invocation.emptyDir, target);
  // A socket allowed inside a hidden directory needs its mount point made before the tmpfs turns read-only.
  const sockets = invocation.unixSockets ?? [];
  const handed = invocation.handedFiles ?? [];
  const boundBack = sockets.length + handed.length > 0;
  for (const dir of plan.hiddenDirs) args.push('--tmpfs', dir, ...(!boundBack ? ['--remount-ro', dir] : []));
  for (const file of plan.hiddenFiles) args.push('--ro-bind', '/dev/null', file);
  for (const socket of sockets) args.push('--ro-bind-try', socket, socket);
  for (const file of handed) args.push('--ro-bind', file, file);
  if (boundBack) for (const dir of plan.hiddenDirs) args.push('--remount-ro', dir);
  // Read-only once every mount point in them is made (their entries' binds keep their own flags).
  for (const { dir } of plan.rebuilt ?? []) args.push('--remount-ro', dir);
  if (invocation.seccomp) args.push('--seccomp', String(SECCOMP_FD));
  args.push('--chdir', invocation.cwd, '--', ...invocation.argv);
  return args;
}
