// The running command's output tail (for the terminal UI): last lines, at most one report per interval.
import { OutputTail, TAIL_LINES } from '../../../plugins/tool-bash/output-tail.js';
import type { ToolProgress } from '../../../types/events.js';

test('reports the last lines at once, then at most once per interval with the newest tail', async () => {
  const reports: ToolProgress[] = [];
  const tail = new OutputTail((p) => reports.push(p), 50);
  tail.write(Buffer.from('a\nb\n'));
  expect(reports).toEqual([{ progress: 4, message: 'a\nb' }]);
  tail.write(Buffer.from(Array.from({ length: 9 }, (_, i) => `line ${i}`).join('\n')));
  tail.write(Buffer.from('\nlast\n'));
  expect(reports).toHaveLength(1); // within the interval: held back
  await new Promise((r) => setTimeout(r, 80));
  expect(reports).toHaveLength(2);
  expect(reports[1]!.message!.split('\n')).toEqual(['line 5', 'line 6', 'line 7', 'line 8', 'last']);
  expect(reports[1]!.message!.split('\n')).toHaveLength(TAIL_LINES);
  tail.close();
});

test('nothing is reported after close, and nothing without a progress callback', async () => {
  const reports: ToolProgress[] = [];
  const tail = new OutputTail((p) => reports.push(p), 50);
  tail.write(Buffer.from('one\n'));
  tail.write(Buffer.from('two\n'));
  tail.close();
  await new Promise((r) => setTimeout(r, 80));
  expect(reports.map((r) => r.message)).toEqual(['one']);
  expect(() => new OutputTail(undefined).write(Buffer.from('x'))).not.toThrow();
});
