/** `mewcode sessions`: this project's saved sessions, newest first, read without booting a kernel. */
import type { SubcommandContext } from '../../types/cli.js';
import { terminalSafe } from '../../config/terminal-safe.js';
import { FileSessionStore } from './session-store.js';

export const SESSIONS_USAGE = 'usage: mewcode sessions';

export async function listSessions(context: SubcommandContext, now = Date.now()): Promise<number> {
  if (context.argv.length > 0) {
    context.err(`mewcode: sessions takes no arguments (got "${context.argv.join(' ')}"); ${SESSIONS_USAGE}\n`);
    return 2;
  }
  const { cwd } = context;
  const sessions = await new FileSessionStore(cwd, context.homeDir).list();
  if (sessions.length === 0) {
    context.out(`No saved sessions in ${cwd}.\n`);
    return 0;
  }
  const rows = sessions.map((s) => [s.id, age(now - Date.parse(s.updated)), printable(s.model ?? '?'), `${s.messages} msg`, printable(s.title)]);
  const widths = rows[0]!.slice(0, -1).map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) context.out(`${row.map((cell, column) => (column < widths.length ? cell.padEnd(widths[column]!) : cell)).join('  ')}\n`);
  context.out('Continue one with: mewcode --resume <id>   (the newest: mewcode --continue)\n');
  return 0;
}

/** A title comes from a file in the project: control characters (terminal escapes) never reach the terminal. */
function printable(text: string): string {
  return terminalSafe(text);
}

export function age(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}
