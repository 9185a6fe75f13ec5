/** `mewcode doctor`'s audit line: the project's audit log (.mewcode/audit.jsonl), when there is one, must verify. */
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { DoctorContext, DoctorFinding } from '../../types/cli.js';
import { anchorFileOf, headFileOf } from './chain.js';
import { verifyAuditLog } from './verify.js';

const NO_LOG: DoctorFinding = { status: 'ok', check: 'audit', message: 'no audit log in this project yet (.mewcode/audit.jsonl)' };

export async function checkAudit(context: Pick<DoctorContext, 'cwd' | 'homeDir'>): Promise<DoctorFinding[]> {
  const file = path.join(context.cwd, '.mewcode', 'audit.jsonl');
  const exists = async (f: string): Promise<boolean> => access(f).then(() => true, () => false);
  if (!(await exists(file)) && !(await exists(headFileOf(file)))) return [NO_LOG];
  try {
    const result = await verifyAuditLog(file, { anchor: anchorFileOf(context.homeDir, file) });
    if (result.ok === 'missing') return [NO_LOG];
    if (result.ok) return [{ status: 'ok', check: 'audit', message: `audit log intact: ${result.records} records in ${result.files} file${result.files === 1 ? '' : 's'}` }];
    return [{
      status: 'fail',
      check: 'audit',
      message: `audit log BROKEN: ${result.file} line ${result.line}: ${result.reason}`,
      hint: 'it was changed outside MewCode; keep a copy, investigate, then move it aside (mewcode audit verify repeats this check)',
    }];
  } catch (error) {
    return [{ status: 'fail', check: 'audit', message: `cannot read the audit log ${file}: ${(error as Error).message}`, hint: 'check the file\'s permissions' }];
  }
}
