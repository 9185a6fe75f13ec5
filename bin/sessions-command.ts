/** `mewcode sessions`: this project's saved sessions, newest first, read without booting a kernel. */
import os from 'node:os';
import { terminal, terminalSafe } from '../config/terminal-safe.js';
import { FileSessionStore } from '../plugins/session/session-store.js';

export async function listSessions(cwd: string, now = Date.now()): Promise<number> {
  const sessions = await new FileSessionStore(cwd, os.homedir()).list();
  if (sessions.length === 0) {
    terminal.out(`No saved sessions in ${cwd}.\n`);
    return 0;
  }
  const rows = sessions.map((s) => [s.id, age(now - Date.parse(s.updated)), printable(s.model ?? '?'), `${s.messages} msg`, printable(s.title)]);
  const widths = rows[0]!.slice(0, -1).map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows) terminal.out(`${row.map((cell, column) => (column < widths.length ? cell.padEnd(widths[column]!) : cell)).join('  ')}\n`);
  terminal.out('Continue one with: mewcode --resume <id>   (the newest: mewcode --continue)\n');
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
