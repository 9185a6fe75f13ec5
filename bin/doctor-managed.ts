/**
 * `mewcode doctor`'s managed settings check: which managed files were read and what each
 * restriction is, or why the managed settings cannot be applied (then every run stops, exit 2).
 */
import { accessSync, constants } from 'node:fs';
import { loadManagedPolicy, managedFileCandidates, MANAGED_SETTINGS_ENV } from '../config/managed-settings.js';
import { describePolicy, type ManagedPolicy } from '../types/managed.js';
import type { CheckLine } from './doctor-report.js';

export async function checkManaged(env: NodeJS.ProcessEnv): Promise<{ lines: CheckLine[]; policy?: ManagedPolicy }> {
  let policy: ManagedPolicy;
  try {
    policy = await loadManagedPolicy({ env });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { lines: [{ status: 'fail', check: 'managed', message, hint: 'every run stops (exit 2) until the managed file is fixed; ask whoever manages this machine' }] };
  }
  if (policy.files.length === 0) {
    const looked = managedFileCandidates(env).map((candidate) => candidate.file);
    const where = looked.length > 0 ? looked.join(', ') : 'no system location on this platform';
    return { lines: [{ status: 'ok', check: 'managed', message: `no managed settings (looked for ${where}; ${MANAGED_SETTINGS_ENV} names one more)` }], policy };
  }
  const lines: CheckLine[] = policy.files.map((file) =>
    writableByUser(file)
      ? { status: 'warn', check: 'managed', message: `managed file ${file} can be changed by you`, hint: 'a policy is only as strong as its file: make it owned by root and not writable by others' }
      : { status: 'ok', check: 'managed', message: `managed file ${file}` },
  );
  const restrictions = describePolicy(policy);
  if (restrictions.length === 0) lines.push({ status: 'ok', check: 'managed', message: 'the managed files restrict nothing' });
  for (const restriction of restrictions) lines.push({ status: 'ok', check: 'managed', message: `enforced: ${restriction}` });
  return { lines, policy };
}

/** Whether the current (non-root) user may write the file: then it restricts nobody who wants out. */
function writableByUser(file: string): boolean {
  if (process.getuid?.() === 0) return false;
  try {
    accessSync(file, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
