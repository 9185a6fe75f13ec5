/** `mewcode doctor` lines: one per finding, `ok|warn|fail  check  message — hint`, on one line each. */

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface CheckLine {
  status: CheckStatus;
  /** The check's short name: node, managed, config, settings, trust, provider, ripgrep, sandbox, audit, plugins. */
  check: string;
  message: string;
  /** What to do about it (warn and fail lines). */
  hint?: string;
}

/** How paths are shown: relative inside the project, `~/…` inside the home directory. */
export interface PathStyle {
  cwd: string;
  homeDir: string;
}

/** Shortens every occurrence of the project and home paths in `text`. */
export function shortenPaths(text: string, style: PathStyle): string {
  let out = text;
  if (style.cwd.length > 1) out = out.split(`${style.cwd}/`).join('');
  if (style.homeDir.length > 1) out = out.split(`${style.homeDir}/`).join('~/');
  return out;
}

/** One line: control characters and line breaks of multi-line messages become spaces. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
}

const STATUS_WIDTH = 5;
const CHECK_WIDTH = 9;

export function formatLine(line: CheckLine, style: PathStyle): string {
  const text = shortenPaths(line.hint ? `${line.message} — ${line.hint}` : line.message, style);
  return `${line.status.padEnd(STATUS_WIDTH)} ${line.check.padEnd(CHECK_WIDTH)} ${oneLine(text)}`;
}

export function summaryLine(lines: readonly CheckLine[]): string {
  const count = (status: CheckStatus): number => lines.filter((l) => l.status === status).length;
  return `${count('ok')} ok, ${count('warn')} warn, ${count('fail')} fail`;
}
