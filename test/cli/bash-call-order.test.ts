/**
 * Bash calls of one model turn run side by side only when each only reads: a call that writes
 * (here through an option or a redirection the shell analysis must recognise) runs alone, so the
 * reading call the model put after it sees what it wrote. Through the built CLI and the scripted
 * server.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';

beforeAll(async () => {
  await prepareCli();
});
afterAll(() => removeTempDirs());

function toolResults(body: any): string[] {
  const last = body.messages.at(-1);
  return last.content
    .filter((b: any) => b.type === 'tool_result')
    .map((b: any) => (typeof b.content === 'string' ? b.content : b.content.map((c: any) => c.text).join('')));
}

test("a writing call keeps its place: the turn's later reading calls see what it wrote", async () => {
  const bash = (id: string, command: string) => ({ id, name: 'bash', input: { command } });
  const turns = [
    {
      toolCalls: [
        // sort -uo writes its output file; a file named by digits is a file, not a descriptor.
        bash('toolu_sort', 'sleep 0.5 && sort -uo out.txt in.txt'),
        bash('toolu_cat_sorted', 'cat out.txt'),
        bash('toolu_digits', 'sleep 0.5 && echo data > 5'),
        bash('toolu_cat_digits', 'cat 5'),
      ],
    },
    { text: 'Done.' },
  ];
  await scenario(turns, async (s) => {
    writeFileSync(join(s.cwd, 'in.txt'), 'b\na\nb\n');
    const r = await s.run(['-p', 'sort the file', '--output-format', 'json', '--permission-mode', 'bypassPermissions']);
    expect(r.code).toBe(0);
    expect(s.requests).toHaveLength(2);
    expect(toolResults(s.requests[1]!.body)).toEqual(['exit_code: 0\n(no output)', 'exit_code: 0\na\nb', 'exit_code: 0\n(no output)', 'exit_code: 0\ndata']);
  });
});
