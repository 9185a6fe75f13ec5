/**
 * Paths the kernel resolves against the process that opens them: `/proc/self/…`,
 * `/proc/thread-self/…`, `/proc/<pid>/…` (`cwd`, `root`, `fd/N`, `task/<tid>/cwd`…) and what
 * leads there (`/dev/fd` and `/dev/stdin|stdout|stderr` are links into `/proc/self`, and so may be
 * a link a repository or an earlier command planted: `pc -> /proc/self/cwd`). Resolved in
 * MewCode's own process they name MewCode's working directory, root and descriptors, not the
 * command's: `cd ~ && echo x >> /proc/self/cwd/.bashrc` writes `~/.bashrc` while MewCode would
 * resolve the path to the project. A command's path going through one is therefore a place that
 * cannot be known before it runs (the path checks treat it as computed); never resolved here.
 *
 * (The file tools, which open paths in MewCode's own process, resolve them normally: for them the
 * resolution is the truth, and the checks judge the place it reaches.)
 */
import { lstatSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** A process directory of /proc, as written: `/proc/self`, `/proc/thread-self`, `/proc/123`, and anything below. */
const PROCESS_DIRECTORY = /^\/proc\/(?:self|thread-self|\d+)(?:\/|$)/;

const MAX_LINK_HOPS = 40; // Linux's limit for one path resolution

/**
 * The process-relative place an absolute path goes through — as written or through a symbolic
 * link on its way — or undefined when it goes through none (see physicalWalk).
 */
export function throughProcessPath(absolute: string): string | undefined {
  return physicalWalk(absolute).through;
}

/**
 * A path walked as the kernel walks it: link by link, `..` taken from where the links led (so
 * `link/../x` is beside the link's target, not beside the link), without ever asking the kernel
 * to resolve a `/proc` magic link. `through`: the process-relative place it reaches, if any (an
 * unreadable part, a loop or too many links count too: where it leads cannot be told).
 * `physical`: where it leads (a missing part ends the walk, the rest appended as written).
 */
export function physicalWalk(absolute: string): { through?: string; physical: string } {
  let pending = absolute.split('/').filter((part) => part !== '' && part !== '.');
  let current = '/';
  let hops = 0;
  const rest = (): string => path.posix.join(current, ...pending);
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === '..') {
      current = path.posix.dirname(current);
      continue;
    }
    const next = current === '/' ? `/${part}` : `${current}/${part}`;
    if (PROCESS_DIRECTORY.test(next)) return { through: next, physical: path.posix.join(next, ...pending) };
    let isLink: boolean;
    try {
      const stats = lstatSync(next, { throwIfNoEntry: false });
      if (stats === undefined) {
        current = next;
        return { physical: rest() }; // missing: nothing below it is a link yet
      }
      isLink = stats.isSymbolicLink();
    } catch (error) {
      current = next;
      // A file in the middle: the open fails. Anything else: where it leads cannot be told.
      return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? { physical: rest() } : { through: `${next} (a path that cannot be resolved)`, physical: rest() };
    }
    if (!isLink) {
      current = next;
      continue;
    }
    if (++hops > MAX_LINK_HOPS) return { through: `${next} (too many links)`, physical: next };
    let text: string;
    try {
      text = readlinkSync(next);
    } catch {
      return { through: `${next} (a link that cannot be read)`, physical: next };
    }
    // The link's text replaces its name: an absolute text starts over from `/`.
    if (text.startsWith('/')) current = '/';
    pending = [...text.split('/').filter((p) => p !== '' && p !== '.'), ...pending];
  }
  return { physical: current };
}

/** `/dev/stdin|stdout|stderr` and `/dev/fd/N`: reopen one of the command's descriptors (a link into `/proc/self/fd`). */
export const DESCRIPTOR_DEVICE = /^\/dev\/(?:stdin|stdout|stderr|fd\/\d+)$/;

/**
 * Whether a command line opens a file for reading on a descriptor (`< file`, `3< file`, `exec 3<
 * file`): `/dev/stdout` or `/dev/fd/3` then reopens that file — for writing, when written to
 * (`echo x 1< ~/.bashrc > /dev/stdout` truncates `~/.bashrc`). Without one, the descriptors are
 * the tool's pipes, files the line writes (judged as such) or here-documents.
 */
export function readsFileOnDescriptor(segments: readonly { redirects: readonly { op: string; target: string }[] }[]): boolean {
  return segments.some((segment) => segment.redirects.some((r) => r.op === '<' && r.target !== '/dev/null'));
}
