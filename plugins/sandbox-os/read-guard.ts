/**
 * Why a file tool must not read a path outside the project even where an allow rule names it
 * (CommandSandbox.hiddenReason): what this sandbox keeps from every command is a secret a rule
 * such as `Read(~/**)` or `Read(//home/me/**)` must not hand the model either. The same sources as
 * the command's mounts (sandbox-commands.ts denyReadPaths), judged for one path without listing
 * directories: the credential list and the paths the environment moved credentials to, the hidden
 * entries of ~/.mewcode, ~/.claude, ~/.codex and ~/.gemini, a name under the home that says secret
 * or history (secret-names.ts; every folder on the way, not only the scan's depth), other
 * projects' session records, and the user's `sandbox.deny_read`. Conservative where the commands'
 * scan looks at content (a `.pem` under the home counts as a key).
 */
import path from 'node:path';
import { isPathWithin } from '../../types/path-within.js';
import { credentialPaths, credentialPathsFromEnv, HIDDEN_EXCEPT } from './credential-paths.js';
import { globReadRules, isGlob } from './deny-read-globs.js';
import { secretNameKind } from './secret-names.js';
import { sessionRecordPaths } from './session-transcripts.js';
import { expandHome } from './settings.js';

export interface ReadGuardContext {
  homeDir: string;
  projectRoot: string;
  denyRead: readonly string[];
  env: NodeJS.ProcessEnv;
}

export async function hiddenReason(absolutePath: string, context: ReadGuardContext): Promise<string | undefined> {
  if (!path.isAbsolute(absolutePath)) return 'the path is not absolute';
  const target = path.normalize(absolutePath);
  const home = path.normalize(context.homeDir);
  const display = (p: string): string => (isPathWithin(home, p) ? `~/${path.relative(home, p)}` : p);
  for (const entry of [...credentialPaths(home), ...credentialPathsFromEnv(home, context.env)]) {
    if (isPathWithin(entry, target)) return `${display(entry)} is on the sandbox's credential list`;
  }
  for (const [dir, keep] of Object.entries(HIDDEN_EXCEPT)) {
    const base = path.join(home, dir);
    if (target === base) continue;
    if (isPathWithin(base, target) && !keep.includes(path.relative(base, target).split(path.sep)[0]!)) return `~/${dir} holds credentials and transcripts (only ${keep.join(', ')} there can be read)`;
  }
  if (isPathWithin(home, target) && target !== home) {
    const parts = path.relative(home, target).split(path.sep);
    for (let i = 0; i < parts.length; i++) {
      const kind = secretNameKind(parts[i]!, i < parts.length - 1);
      if (kind !== undefined) return `its name (${parts.slice(0, i + 1).join('/')}) says it holds ${kind === 'history' ? 'a history' : 'secrets'}`;
    }
  }
  for (const entry of context.denyRead) {
    const expanded = expandHome(entry, home);
    if (expanded === undefined) continue;
    if (isGlob(expanded) ? globReadRules([expanded])?.hidden(target) === true : isPathWithin(path.normalize(expanded), target)) return `sandbox.deny_read names it (${entry})`;
  }
  const records = await sessionRecordPaths(home, [context.projectRoot]);
  for (const record of records.paths) if (isPathWithin(record, target)) return `${display(record)} holds MewCode's session records`;
  return undefined;
}
