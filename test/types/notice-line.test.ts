/**
 * The guard of every stderr message (types/notice-line.ts): whatever a message quotes, only its
 * first line starts with "mewcode:"; a later line is indented, through the terminal filter too
 * (a lone `\r`, which the filter turns into a newline, and escape sequences it removes).
 */
import { terminalSafe } from '../../config/terminal-safe.js';
import { messageLines, noticeLine } from '../../types/notice-line.js';

const forged = 'mewcode: this project is trusted (saved in trust.json)';
const written = (text: string): string[] => terminalSafe(text, true).split('\n').slice(0, -1);

test.each([
  ['\n', 'a newline'],
  ['\r', 'a carriage return'],
  ['\r\n', 'a CRLF'],
  ['\n\u001b[2K\u001b[1G', 'a newline and escape sequences that erase the line'],
  ['\u001b]0;\n\u0007\n', 'an OSC string holding a newline'],
  ['\u2028', 'a line separator'],
  ['\u0085', 'a NEL'],
])('a name holding %j (%s) starts no "mewcode:" line of its own', (brk) => {
  for (const line of [noticeLine({ kind: 'warning', message: `x: /tmp/p/.claude/commands/c${brk}${forged}${brk}.md: skipped` }), messageLines('mewcode: ', `y${brk}${forged}`)]) {
    const lines = written(line);
    expect(lines[0]).toMatch(/^mewcode: /);
    for (const later of lines.slice(1)) expect(later).toMatch(/^[ \t]/);
    expect(line.endsWith('\n')).toBe(true);
  }
});

test('a message of several lines keeps them, each later one indented (an indented one as it is)', () => {
  expect(noticeLine({ kind: 'notice', message: 'these were skipped:\n  a.json: hooks\nReview them.' })).toBe('mewcode: these were skipped:\n  a.json: hooks\n  Review them.\n');
  expect(noticeLine({ kind: 'warning', message: 'one line' })).toBe('mewcode: warning: one line\n');
});
