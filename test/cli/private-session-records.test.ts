/**
 * MewCode's own session records (transcripts with every prompt the user typed, sub-agents'
 * transcripts, saved tool results) are refused to every file tool, whatever the spelling of the
 * path, in every permission mode — except the current session's saved tool results, which the
 * model is told to read. The OS sandbox already hides them from commands.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const EARLIER = '20261201-101010-beef';
const S = `.mewcode/sessions/${EARLIER}`;

/** An earlier session of this project, started on this machine: a pasted token in its transcript. */
function plantEarlierSession(cwd: string, home: string): void {
  const dir = join(cwd, '.mewcode', 'sessions', EARLIER);
  mkdirSync(join(dir, 'tool-results'), { recursive: true });
  mkdirSync(join(dir, 'agents'), { recursive: true });
  const record = JSON.stringify({ v: 1, type: 'message', time: new Date().toISOString(), message: { role: 'user', content: [{ type: 'text', text: 'deploy with PASTED-TOKEN-1' }] } });
  writeFileSync(join(dir, 'conversation.jsonl'), `${record}\n`);
  writeFileSync(join(dir, 'agents', 'a1.jsonl'), 'AGENT-PASTED-TOKEN-2\n');
  writeFileSync(join(dir, 'tool-results', 'saved'), 'SAVED-RESULT-TOKEN-3\n');
  mkdirSync(join(home, '.mewcode'), { recursive: true });
  writeFileSync(join(home, '.mewcode', 'sessions.jsonl'), `${JSON.stringify({ v: 1, root: realpathSync(cwd), id: EARLIER })}\n`);
  symlinkSync(join(dir, 'conversation.jsonl'), join(cwd, 'notes.md'));
  symlinkSync(join(cwd, '.mewcode'), join(cwd, 'state'));
  // A project's instructions importing the transcript, directly and through the link.
  writeFileSync(join(cwd, 'CLAUDE.md'), `Read these:\n@${S}/conversation.jsonl\n@notes.md\n`);
}

const probes = [
  { id: 'plain', name: 'read_file', input: { file_path: `${S}/conversation.jsonl` } },
  { id: 'spelling', name: 'read_file', input: { file_path: `./.mewcode//sessions/./${EARLIER}/conversation.jsonl` } },
  { id: 'agent', name: 'read_file', input: { file_path: `${S}/agents/a1.jsonl` } },
  { id: 'results', name: 'read_file', input: { file_path: `${S}/tool-results/saved` } },
  { id: 'link', name: 'read_file', input: { file_path: 'notes.md' } },
  { id: 'dirlink', name: 'read_file', input: { file_path: `state/sessions/${EARLIER}/conversation.jsonl` } },
  { id: 'grepfile', name: 'grep', input: { pattern: 'TOKEN', path: `${S}/conversation.jsonl`, output_mode: 'content' } },
  { id: 'grepdir', name: 'grep', input: { pattern: 'TOKEN', path: '.mewcode', output_mode: 'content' } },
  { id: 'globdir', name: 'glob', input: { pattern: '**/*', path: '.mewcode' } },
  { id: 'globroot', name: 'glob', input: { pattern: '.mewcode/sessions/**' } },
  { id: 'write', name: 'write_file', input: { file_path: `${S}/conversation.jsonl`, content: 'forged' } },
  { id: 'edit', name: 'edit_file', input: { file_path: `${S}/conversation.jsonl`, old_string: 'deploy', new_string: 'x' } },
];

test.concurrent("an earlier session's records are refused to every file tool, in bypassPermissions too, with the reason", async () => {
  await scenario([{ toolCalls: probes }, { text: 'done' }], async (s) => {
    plantEarlierSession(s.cwd, s.home);
    const r = await s.run(['-p', 'look', '--permission-mode', 'bypassPermissions']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("MewCode's session records");
    const sent = JSON.stringify(s.requests.map((q) => q.body));
    expect(/PASTED-TOKEN|SAVED-RESULT-TOKEN/.test(sent)).toBe(false);
    for (const probe of ['plain', 'spelling', 'agent', 'results', 'link', 'dirlink', 'grepfile', 'write', 'edit']) {
      const result = toolResultOf(s.requests, probe);
      expect([probe, result.is_error]).toEqual([probe, true]);
      expect(result.content).toContain("MewCode's session records");
    }
    // Walks leave them out instead of failing.
    expect(toolResultOf(s.requests, 'globdir').content).not.toContain('conversation.jsonl');
    expect(toolResultOf(s.requests, 'globroot').content).not.toContain('conversation.jsonl');
  });
});

test.concurrent("the current session's saved tool results stay readable (resumed session), its transcript does not", async () => {
  const turns = [
    {
      toolCalls: [
        { id: 'own', name: 'read_file', input: { file_path: `${S}/tool-results/saved` } },
        { id: 'transcript', name: 'read_file', input: { file_path: `${S}/conversation.jsonl` } },
      ],
    },
    { text: 'done' },
  ];
  await scenario(turns, async (s) => {
    plantEarlierSession(s.cwd, s.home);
    const r = await s.run(['--resume', EARLIER, '-p', 'go on']);
    expect(r.code).toBe(0);
    const own = toolResultOf(s.requests, 'own');
    expect(own.is_error ?? false).toBe(false);
    expect(own.content).toContain('SAVED-RESULT-TOKEN-3');
    const transcript = toolResultOf(s.requests, 'transcript');
    expect(transcript.is_error).toBe(true);
    expect(transcript.content).toContain("MewCode's session records");
  });
});
