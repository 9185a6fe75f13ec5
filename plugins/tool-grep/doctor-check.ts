/** `mewcode doctor`'s ripgrep line: whether the grep tool finds `rg` on PATH or falls back to its own engine. */
import type { DoctorContext, DoctorFinding } from '../../types/cli.js';
import { findRipgrep } from './find-ripgrep.js';

export function checkRipgrep(context: Pick<DoctorContext, 'env'>): DoctorFinding[] {
  return ripgrepLines(findRipgrep(context.env.PATH));
}

export function ripgrepLines(found: string | undefined): DoctorFinding[] {
  if (found) return [{ status: 'ok', check: 'ripgrep', message: `rg at ${found} (the grep tool uses it)` }];
  return [{ status: 'warn', check: 'ripgrep', message: 'rg is not on PATH: the grep tool falls back to its slower built-in engine', hint: 'install ripgrep (e.g. apt-get install ripgrep, brew install ripgrep)' }];
}
