/**
 * macOS: a Seatbelt profile for `sandbox-exec -p <profile> -- argv`.
 *
 * UNTESTED: written on Linux, where sandbox-exec does not exist; only the profile text is unit
 * tested. Seatbelt applies the LAST matching rule, so the order is: allow everything, deny all
 * writes, allow writes under the writable roots and the private temp dir, deny writes to the
 * protected paths again, deny reads of the deny-read list, deny the network, deny unix-socket
 * connections except to the allowed ones (Seatbelt, unlike seccomp, sees their path). Unlike bubblewrap,
 * Seatbelt rules match paths, not mounts, so a missing protected path needs no mount point, and
 * /tmp is not replaced (the private temp dir is passed as TMPDIR by the caller's environment).
 */
import type { MountPlan } from './mount-plan.js';

export interface SeatbeltInvocation {
  plan: MountPlan;
  privateTmp: string;
  network: boolean;
  argv: readonly string[];
  /**
   * Unix sockets: outbound connections to them are refused (the counterpart of the Linux seccomp
   * filter) except to these paths (sockets, or directories of them), unless `allowAll`.
   */
  unixSockets?: { allowed: readonly string[]; allowAll?: boolean };
}

/** A Seatbelt regex literal matching everything below `dir`. */
function below(dir: string): string {
  return `#"^${dir.replace(/[.*+?^${}()|[\]\\"]/g, '\\$&')}/"`;
}

/** A Seatbelt string literal: backslash and double quote escaped. */
function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function seatbeltProfile(invocation: SeatbeltInvocation): string {
  const { plan } = invocation;
  const lines = ['(version 1)', '(allow default)', '(deny file-write*)'];
  const writable = [...plan.writable, invocation.privateTmp];
  lines.push(`(allow file-write* ${writable.map((dir) => `(subpath ${quote(dir)})`).join(' ')} (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))`);
  if (plan.homeGuard) {
    lines.push(`(deny file-write* (subpath ${quote(plan.homeGuard.home)}))`);
    if (plan.homeGuard.writableEntries.length > 0) lines.push(`(allow file-write* ${plan.homeGuard.writableEntries.map((entry) => `(subpath ${quote(entry)})`).join(' ')})`);
  }
  const protectedPaths = [...plan.readOnly, ...plan.blocked];
  if (protectedPaths.length > 0) lines.push(`(deny file-write* ${protectedPaths.map((p) => `(literal ${quote(p)}) (subpath ${quote(p)})`).join(' ')})`);
  // .git itself must not be renamed away and replaced.
  if (plan.pinned.length > 0) lines.push(`(deny file-write-unlink ${plan.pinned.map((p) => `(literal ${quote(p)})`).join(' ')})`);
  const hidden = [...plan.hiddenDirs.map((d) => `(subpath ${quote(d)})`), ...plan.hiddenFiles.map((f) => `(literal ${quote(f)})`)];
  if (hidden.length > 0) lines.push(`(deny file-read* ${hidden.join(' ')})`);
  if (!invocation.network) lines.push('(deny network*)');
  const sockets = invocation.unixSockets ?? { allowed: [] };
  if (!sockets.allowAll) {
    lines.push('(deny network-outbound (remote unix-socket))');
    if (sockets.allowed.length > 0) {
      const allowed = sockets.allowed.map((p) => `(remote unix-socket (path-literal ${quote(p)})) (remote unix-socket (path-regex ${below(p)}))`);
      lines.push(`(allow network-outbound ${allowed.join(' ')})`);
    }
  }
  return lines.join('\n');
}

export function seatbeltArgs(invocation: SeatbeltInvocation): string[] {
  return ['-p', seatbeltProfile(invocation), '--', ...invocation.argv];
}
