/**
 * A kernel with the whole permission stack (blacklist, sandbox, rules, mode) over a temporary
 * project and a canary home directory, for the adversarial suites in test/security. Commands are
 * judged by the checkPermission chain only: nothing is ever executed, and every destructive
 * target a command names is inside the temporary directory.
 */
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kernel } from '../../../kernel/kernel.js';
import blacklist from '../../../plugins/permission-blacklist/index.js';
import { createPermissionRulesPlugin } from '../../../plugins/permission-rules/index.js';
import sandbox from '../../../plugins/permission-sandbox/index.js';
import type { PermissionMode, PermissionVerdict } from '../../../types/permissions.js';
import type { ToolInput } from '../../../types/tools.js';
import { bootKernel } from '../../support/boot.js';
import { cliOptions, decide, fakeTools } from './helpers.js';

export interface Canary {
  root: string;
  home: string;
  /** Files in the canary home directory, to check nothing touched them. */
  homeListing(): string[];
  cleanup(): void;
}

export function canaryDirs(): Canary {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-canary-')));
  const root = path.join(base, 'project');
  const home = path.join(base, 'home');
  mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(root, '.git', 'config'), '[core]\n');
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  writeFileSync(path.join(home, 'CANARY'), 'do not delete\n');
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'canary key\n');
  return { root, home, homeListing: () => readdirSync(home).sort(), cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export async function bootPermissions(dirs: Canary, cli: { allowedTools?: string[]; disallowedTools?: string[] } = {}): Promise<Kernel> {
  const { kernel } = await bootKernel([], [fakeTools(), blacklist, sandbox, createPermissionRulesPlugin()], {
    projectRoot: dirs.root,
    homeDir: dirs.home,
    cli: cliOptions({ allowedTools: cli.allowedTools ?? [], disallowedTools: cli.disallowedTools ?? [] }),
  });
  return kernel;
}

export function judge(kernel: Kernel, toolName: string, input: ToolInput, mode: PermissionMode): Promise<PermissionVerdict | undefined> {
  return decide(kernel, toolName, input, mode);
}

/** An attempt escapes when the chain allows it (a missing verdict means the kernel asks). */
export function escaped(verdict: PermissionVerdict | undefined): boolean {
  return verdict?.decision === 'allow';
}
