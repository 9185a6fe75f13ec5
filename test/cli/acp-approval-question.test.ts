/**
 * `mewcode acp` (the BUILT binary): what the editor's approval question shows. The title starts
 * with what runs (the command's own start, the file), never the model's description of it; the
 * question always carries a text block with the whole command or target, every line, and the
 * reason it asks. Every message is checked against the protocol's schema by the SDK's client side.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';
import { newSession, promptText, withAgent } from './acp-harness.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const textOf = (content: unknown): string =>
  ((content ?? []) as Array<{ type: string; content?: { type: string; text?: string } }>)
    .filter((c) => c.type === 'content' && c.content?.type === 'text')
    .map((c) => c.content!.text!)
    .join('\n');

test(
  'bash and write_file questions: the title is what runs, one line; the block has the whole command or path, the reason, the description labelled',
  async () => {
    const long = 'echo "checking the build output for errors in the usual places and reporting them" ; touch PWNED2';
    const lines = 'ls\n\n\n\n' + ' '.repeat(200) + 'touch PWNED3';
    const file = 'docs/notes.md\n\n(read-only preview, nothing is written)\n\n.x';
    const turns = [
      { toolCalls: [{ id: 'b1', name: 'bash', input: { command: 'touch PWNED1', description: 'List the files in the project' } }] },
      { toolCalls: [{ id: 'b2', name: 'bash', input: { command: long } }] },
      { toolCalls: [{ id: 'b3', name: 'bash', input: { command: lines } }] },
      { toolCalls: [{ id: 'w4', name: 'write_file', input: { file_path: file, content: 'x' } }] },
      { text: 'done' },
    ];
    await scenario(turns, async (s) => {
      // The OS sandbox off: every command is asked about.
      mkdirSync(join(s.home, '.mewcode'), { recursive: true });
      writeFileSync(join(s.home, '.mewcode', 'settings.yaml'), 'sandbox: false\n');
      await withAgent(s, async (client) => {
        client.answer.permission = () => ({ outcome: { outcome: 'selected', optionId: 'deny' } });
        const id = await newSession(client, s.cwd);
        expect((await promptText(client, id, 'go')).stopReason).toBe('end_turn');
        const asked = client.permissionRequests.map((r) => ({ id: r.toolCall.toolCallId, title: r.toolCall.title ?? '', text: textOf(r.toolCall.content) }));
        expect(asked.map((a) => a.id)).toEqual(['b1', 'b2', 'b3', 'w4']);
        for (const { title } of asked) expect(title).not.toMatch(/[\n\r]/);
        const [b1, b2, b3, w4] = asked;
        expect(b1!.title).toBe('Run `touch PWNED1`');
        expect(b1!.text).toContain('touch PWNED1');
        expect(b1!.text).toMatch(/Description \(from the model\): .*List the files in the project/);
        expect(b1!.text).toMatch(/Reason: /);
        expect(b2!.title).toContain('…');
        expect(b2!.text).toContain(long);
        expect(b3!.title).toMatch(/^Run `ls\\n\\n/);
        expect(b3!.text).toContain(lines);
        expect(w4!.title.startsWith('Write docs/notes.md\\n')).toBe(true);
        expect(w4!.text).toContain(join(s.cwd, file));
        // The pending tool_call the editor shows carries the same facts.
        const announced = client.updatesOf(id).find((u) => u.sessionUpdate === 'tool_call' && u.toolCallId === 'b1') as { title: string; content?: unknown };
        expect(announced.title).toBe('Run `touch PWNED1`');
        expect(textOf(announced.content)).toContain('touch PWNED1');
      });
      expect(existsSync(join(s.cwd, 'PWNED1'))).toBe(false);
    });
  },
  60_000,
);
