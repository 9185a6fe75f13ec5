// Start-up is a feature: the permission rules are read, and a broken one is reported, on every
// launch's path; what checking a call takes (a command's decision, protected paths, what a command
// reads) is not, nor compaction's summary, a custom command's run or the reader of saved sessions.
// Each is imported where it is first needed, the call checks also by the idle warm-up after the
// first request has left. A resolve hook records every file the built CLI loads, and each file's
// source map says which sources it holds.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, prepareCli, removeTempDirs, scenario, writeFileAndDirs } from './helpers.js';
import { distFilesByProcess, firstRequests, hookImport } from './load-hook.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

/** Sources the program imports where they are first needed, never on the start-up path. */
const ON_DEMAND = [
  'plugins/permission-rules/command-decision.ts',
  'plugins/permission-rules/protection.ts',
  'plugins/permission-rules/command-read-check.ts',
  'plugins/compaction/summary-run.ts',
  'plugins/custom-commands/command.ts',
  'plugins/session/session-store.ts',
];
/** Of those, what the check of a bash call loads. */
const LOADED_BY_A_CALL_CHECK = ['plugins/permission-rules/command-decision.ts', 'plugins/permission-rules/protection.ts', 'plugins/permission-rules/command-read-check.ts'];

/** The sources the built files hold (their source maps name `../../plugins/…`). */
function sourcesIn(files: Iterable<string>): Set<string> {
  const sources = new Set<string>();
  for (const file of files) for (const source of JSON.parse(readFileSync(`${file}.map`, 'utf8')).sources as string[]) sources.add(source.replace(/^(\.\.\/)+/, ''));
  return sources;
}

test('the on-demand sources are in the build (so finding none below means something)', () => {
  const chunks = join(REPO_ROOT, 'dist', 'chunks');
  const built = sourcesIn(readdirSync(chunks).filter((f) => f.endsWith('.js')).map((f) => join(chunks, f)));
  expect(ON_DEMAND.filter((source) => !built.has(source))).toEqual([]);
});

test('with permission rules configured, a -p run reports a broken rule at start and loads none of the call checks before its first request; its bash call does', async () => {
  const turns = [{ text: 'Running.', toolCalls: [{ id: 'call_1', name: 'bash', input: { command: 'echo checked' } }] }, { text: 'Done.' }];
  await scenario(turns, async (s) => {
    writeFileAndDirs(join(s.home, '.mewcode', 'settings.yaml'), 'permissions:\n  allow: ["Bash(echo *)"]\n  deny: ["Read(./secret.txt)", "Bash(rm -rf *"]\n');
    const hook = hookImport();
    const result = await s.run(['-p', 'run it'], { env: { NODE_OPTIONS: hook.nodeOptions } });
    expect(result.code).toBe(0);
    // Said by the start-up path, before any call is checked.
    expect(result.stderr).toContain('deny rule "Bash(rm -rf *" skipped');
    expect(s.requests).toHaveLength(2); // the allow rule let the call run, and its result went back
    const sent = firstRequests(hook.log);
    expect(sent.size).toBe(1); // the CLI's own process: the shell parser's sends none
    const pid = [...sent.keys()][0]!;
    const atFirstRequest = sourcesIn(distFilesByProcess(hook.log, true).get(pid) ?? []);
    expect(ON_DEMAND.filter((source) => atFirstRequest.has(source))).toEqual([]);
    // The check sees the call checks when they are loaded: the bash call's check imported them.
    const all = sourcesIn(distFilesByProcess(hook.log).get(pid) ?? []);
    expect(LOADED_BY_A_CALL_CHECK.filter((source) => all.has(source))).toEqual(LOADED_BY_A_CALL_CHECK);
  });
}, 60_000);
