/**
 * `mewcode doctor`'s managed settings check: which managed files were read and what each
 * restriction is, or why the managed settings cannot be applied (then every run stops, exit 2).
 */
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
  const lines: CheckLine[] = policy.files.map((file) => ({ status: 'ok', check: 'managed', message: `managed file ${file}` }));
  const restrictions = describePolicy(policy);
  if (restrictions.length === 0) lines.push({ status: 'ok', check: 'managed', message: 'the managed files restrict nothing' });
  for (const restriction of restrictions) lines.push({ status: 'ok', check: 'managed', message: `enforced: ${restriction}` });
  return { lines, policy };
}
