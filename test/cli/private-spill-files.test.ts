/**
 * The full output of a cut tool result is saved in `.mewcode/tool-output/<session id>/`. A later
 * session of the same project (its model perhaps steered by the repository's text) must not read
 * an earlier session's saved outputs — the output of a command the user approved that printed a
 * credential — with read_file (by path or through a link), grep, glob or a sandboxed `cat`, in
 * bypassPermissions too; while the session's own saved output stays readable with read_file,
 * searchable with grep when named, and readable by its commands, as the bash result says.
 */
import { realpathSync, symlinkSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { startScriptedServer, type LoggedRequest, type ScriptedTurn } from '../scripted-server/index.js';
import { anthropicEnv, prepareCli, removeTempDirs, runCli, tempDir, toolResultOf } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const SECRET = 'SPILL-SECRET-TOKEN-1';
const OWN = 'OWN-SPILL-MARKER-2';
/**
 * 301 lines, more than bash shows (200): the marker line falls in the omitted middle. Printed in
 * two parts, so the command itself (which the audit log keeps) does not hold it.
 */
const longOutput = (marker: string): string => `seq 1 150; printf '%s-%s\\n' ${marker.replace('-', ' ')}; seq 151 300`;

/** The spill file a bash result names. */
function spillPathOf(content: string): string {
  const match = /saved in (\S+); read it/.exec(content);
  if (!match) throw new Error(`no spill file named in: ${content}`);
  return match[1]!;
}

const resultIds = (request: LoggedRequest): string[] =>
  (request.body?.messages ?? []).flatMap((m: any) => (Array.isArray(m.content) ? m.content.filter((b: any) => b.type === 'tool_result').map((b: any) => b.tool_use_id as string) : []));

test("a later session cannot read an earlier session's saved outputs; its own stay readable", async () => {
  let script: (request: LoggedRequest) => ScriptedTurn = () => ({ text: 'done' });
  const server = await startScriptedServer({ onRequest: (request) => server.push(script(request)) });
  const cwd = tempDir('mewcode-cli-cwd-');
  const home = tempDir('mewcode-cli-home-');
  const env = { ...anthropicEnv(server, home), MEWCODE_REQUIRE_SANDBOX: '1' };
  const run = (): ReturnType<typeof runCli> => runCli(['-p', 'go', '--permission-mode', 'bypassPermissions'], { cwd, env });
  try {
    // Session 1: a command the user approved prints a credential; its output is cut and saved.
    script = (request) => (resultIds(request).includes('first') ? { text: 'done' } : { toolCalls: [{ id: 'first', name: 'bash', input: { command: longOutput(SECRET) } }] });
    expect((await run()).code).toBe(0);
    const first = toolResultOf(server.requests, 'first');
    expect(first.content).not.toContain(SECRET);
    const earlier = spillPathOf(first.content);
    const earlierAbs = isAbsolute(earlier) ? earlier : join(cwd, earlier);
    symlinkSync(earlierAbs, join(cwd, 'notes.log'));
    const sessionOne = server.requests.length;

    // Session 2: every file tool, and a sandboxed command, tries it; then reads its own.
    let own = '';
    script = (request) => {
      const ids = resultIds(request);
      if (ids.includes('ownread')) return { text: 'done' };
      if (ids.includes('own')) {
        own = spillPathOf(toolResultOf([request], 'own').content);
        return {
          toolCalls: [
            { id: 'ownread', name: 'read_file', input: { file_path: own, offset: 140, limit: 20 } },
            { id: 'owngrep', name: 'grep', input: { pattern: OWN, path: own, output_mode: 'content' } },
            { id: 'owncat', name: 'bash', input: { command: `grep -h ${OWN} ${own}` } },
          ],
        };
      }
      return {
        toolCalls: [
          { id: 'read', name: 'read_file', input: { file_path: earlier } },
          { id: 'readabs', name: 'read_file', input: { file_path: realpathSync(earlierAbs) } },
          { id: 'link', name: 'read_file', input: { file_path: 'notes.log' } },
          { id: 'grepfile', name: 'grep', input: { pattern: 'SPILL-SECRET', path: earlier, output_mode: 'content' } },
          { id: 'grepdir', name: 'grep', input: { pattern: 'SPILL-SECRET', path: '.mewcode', output_mode: 'content' } },
          { id: 'greproot', name: 'grep', input: { pattern: 'SPILL-SECRET', output_mode: 'content' } },
          { id: 'globdir', name: 'glob', input: { pattern: '**/*', path: '.mewcode' } },
          { id: 'globroot', name: 'glob', input: { pattern: '.mewcode/tool-output/**' } },
          { id: 'write', name: 'write_file', input: { file_path: earlier, content: 'forged' } },
          { id: 'cat', name: 'bash', input: { command: 'cat .mewcode/tool-output/*/* .mewcode/tool-output/* notes.log; grep -r SPILL-SECRET .mewcode' } },
          { id: 'own', name: 'bash', input: { command: longOutput(OWN) } },
        ],
      };
    };
    const r = await run();
    expect(r.code).toBe(0);
    const later = server.requests.slice(sessionOne);
    for (const id of ['read', 'readabs', 'link', 'grepfile', 'grepdir', 'greproot', 'globdir', 'globroot', 'write', 'cat', 'own']) expect([id, toolResultOf(later, id).content.includes(SECRET)]).toEqual([id, false]);
    expect(JSON.stringify(later.map((q) => q.body)).includes(SECRET)).toBe(false);
    for (const probe of ['read', 'readabs', 'link', 'grepfile', 'write']) {
      const result = toolResultOf(later, probe);
      expect([probe, result.is_error]).toEqual([probe, true]);
      expect(result.content).toContain('saved tool outputs');
    }
    // Walks leave them out (a listed spill file is `<time>-<call id>.log`).
    expect(toolResultOf(later, 'globdir').content).not.toMatch(/\.log\b/);
    expect(toolResultOf(later, 'globroot').content).not.toMatch(/\.log\b/);
    // The session's own saved output: read_file and grep by name, and its commands.
    expect(own).not.toBe(earlier);
    const ownRead = toolResultOf(later, 'ownread');
    expect(ownRead.is_error ?? false).toBe(false);
    expect(ownRead.content).toContain(OWN);
    expect(toolResultOf(later, 'owngrep').content).toContain(OWN);
    expect(toolResultOf(later, 'owncat').content).toContain(OWN);
  } finally {
    await server.close();
  }
});
