/**
 * Claude Code's allow rules for reading outside the project (`Read(//var/shared/**)`,
 * `Read(~/notes/todo.md)`, what its "don't ask again" writes into settings.local.json): asked by
 * the sandbox layer (a path outside the project is otherwise refused before any rule is read) and
 * by read_file itself (its descriptor check then accepts exactly the file the rule names).
 *
 * One decision for both, from services in types/: the rule comes from TOKENS.PermissionSettings
 * (`outsideReadRule`: only rules written as an absolute or `~/` path, from sources trusted to
 * grant — an untrusted project's allow rules are never loaded), and what stays unreadable whatever
 * a rule says from TOKENS.CommandSandbox (`hiddenReason`: what the sandbox keeps from commands —
 * credentials, secret-named files of the home, `sandbox.deny_read`). Without a sandbox service
 * that answers, every dotfile and dot-folder of the home counts as hidden (fail closed).
 * The path must be matched as written and where its links lead: a link inside an allowed folder
 * pointing elsewhere is not covered. Only read_file honours a grant (glob and grep walk folders,
 * which a rule naming files cannot bound); write tools never get one.
 */
import path from 'node:path';
import type { KernelApi } from '../../types/plugin.js';
import type { CommandSandbox } from '../../types/sandbox.js';
import type { PermissionSettings } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { isPathWithin } from '../../types/path-within.js';

/** The tools that can read a single file outside the project when a rule names it. */
export const OUTSIDE_READ_TOOLS: ReadonlySet<string> = new Set(['read_file']);

export interface OutsideReadCall {
  toolName: string;
  projectRoot: string;
  homeDir: string;
  /** The absolute path as written (`~` expanded, normalised). */
  written: string;
  /** Where it leads, links resolved. */
  real: string;
}

/** A rule lets the read go on (the rules layer still decides), one names it but the path is hidden, or no rule (undefined). */
export type OutsideRead = { ok: true; rule: string } | { ok: false; reason: string } | undefined;

export type OutsideReads = (call: OutsideReadCall) => Promise<OutsideRead>;

export function outsideReadsOf(kernel: KernelApi): OutsideReads {
  return async (call) => {
    if (!OUTSIDE_READ_TOOLS.has(call.toolName) || !kernel.container.isBound(TOKENS.PermissionSettings)) return undefined;
    const paths = [...new Set([call.written, call.real])];
    let rule: string | undefined;
    try {
      const settings = kernel.container.get<PermissionSettings>(TOKENS.PermissionSettings);
      rule = typeof settings.outsideReadRule === 'function' ? settings.outsideReadRule(call.toolName, paths) : undefined;
    } catch {
      return undefined; // a failing settings service grants nothing
    }
    if (typeof rule !== 'string') return undefined;
    for (const candidate of paths) {
      const why = await hiddenReason(kernel, candidate, call);
      if (why !== undefined) {
        return { ok: false, reason: `the ${rule} names ${candidate}, but ${why}: MewCode keeps it from every tool and command, whatever a rule allows (the user can read it themselves)` };
      }
    }
    return { ok: true, rule };
  };
}

async function hiddenReason(kernel: KernelApi, candidate: string, call: OutsideReadCall): Promise<string | undefined> {
  try {
    const sandbox = kernel.container.isBound(TOKENS.CommandSandbox) ? kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox) : undefined;
    if (sandbox && typeof sandbox.hiddenReason === 'function') return await sandbox.hiddenReason(candidate, call.projectRoot);
  } catch (error) {
    return `it could not be checked against the sandbox's hidden paths (${(error as Error).message})`;
  }
  // No sandbox service to ask: the home's dotfiles and dot-folders hold the credentials.
  const home = path.normalize(call.homeDir);
  if (isPathWithin(home, candidate) && candidate !== home && path.relative(home, candidate).startsWith('.')) return 'it is a dotfile of the home, where credentials live';
  return undefined;
}
