/**
 * `mewcode hooks`: the hook rules a run here would use (plugins/hooks/listing.ts), read without
 * booting a kernel.
 */
import os from 'node:os';
import { terminal } from '../config/terminal-safe.js';
import { createWorkspaceTrust } from '../config/trust.js';
import { describeHooks } from '../plugins/hooks/listing.js';
import type { DoctorOptions } from './cli-args.js';

export async function listHooks(options: DoctorOptions): Promise<number> {
  const homeDir = os.homedir();
  const trust = await createWorkspaceTrust({ projectRoot: options.cwd, homeDir, env: process.env, flag: options.trustProject });
  const listing = await describeHooks(options.cwd, homeDir, trust);
  for (const warning of listing.warnings) terminal.err(`mewcode: ${warning}\n`);
  terminal.out(listing.text);
  return 0;
}
