// The recovery attachment puts files back into the history only through the gate a model's read
// passes (kernel.callTool: preToolUse, the permission chain with nobody asked, postToolUse), in a
// real kernel with the real read_file, compaction, permission rules and session plugins: an
// organisation's postToolUse redactor redacts what is recovered, a withholding one (it throws)
// keeps the file out, a file a Read deny rule covers is not recovered, nor one under an ask rule
// (nobody is asked for it). The compaction is the automatic one, inside the running turn (the
// gate's call does not wait for the turn's lock).
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCompactionPlugin } from '../../../plugins/compaction/index.js';
import { SUMMARY_INTRO } from '../../../plugins/compaction/service.js';
import outputLimits from '../../../plugins/output-limits/index.js';
import { createPermissionRulesPlugin } from '../../../plugins/permission-rules/index.js';
import { createSessionPlugin } from '../../../plugins/session/index.js';
import { transcriptFile } from '../../../plugins/session/layout.js';
import toolReadFile from '../../../plugins/tool-read-file/index.js';
import { createWorkspaceTrust } from '../../../config/trust.js';
import type { Kernel } from '../../../kernel/kernel.js';
import { reporterOutput } from '../../../kernel/output-route.js';
import type { MemoryReporter } from '../../../kernel/reporter.js';
import type { FileReadTracker } from '../../../types/file-reads.js';
import type { AgentEvent } from '../../../types/events.js';
import type { PermissionMode } from '../../../types/permissions.js';
import { TOKENS } from '../../../types/tokens.js';
import type { ModelRequest } from '../../../types/provider.js';
import { definePlugin, type MewcodePlugin } from '../../../types/plugin.js';
import { bootKernel, doneEvent, runPrompt } from '../../support/boot.js';
import { call, say, usage, type Step } from '../../support/memory-provider.js';
import { tempDirs, trustPlugin, writeSettings, type Dirs } from '../permission-rules/helpers.js';

const KEY = 'AKIAABCDEFGHIJKLMNOP';
const REDACTED = '[REDACTED BY ACME]';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
  const lines = (count: number, text: string): string => Array.from({ length: count }, (_, i) => `${text} ${i} ${'.'.repeat(70)}`).join('\n') + '\n';
  writeFileSync(path.join(dirs.root, 'secrets.txt'), `aws_access_key_id = ${KEY}\nregion = eu-west-1\n`);
  // About 4,000 tokens: summarised with secrets.txt, recovered before it.
  writeFileSync(path.join(dirs.root, 'filler.txt'), lines(160, 'filler'));
  // About 12,000 tokens as read_file returns it (under layer 1's 50,000 bytes): the kept tail starts with its read.
  writeFileSync(path.join(dirs.root, 'big.txt'), lines(500, 'big'));
  writeFileSync(path.join(dirs.root, 'c.txt'), 'c\n');
  writeFileSync(path.join(dirs.root, 'd.txt'), 'd\n');
});
afterEach(() => dirs.cleanup());

/** The organisation's redactor (as in the audit): no AWS key in a tool's output goes on. */
const redactor: MewcodePlugin = definePlugin({
  name: 'acme-dlp',
  required: true,
  apply(kernel) {
    kernel.hooks.postToolUse.tapPromise('acme-dlp', async (result) => ({ ...result, content: result.content.replace(/AKIA[0-9A-Z]{16}/g, REDACTED) }));
  },
});

/** The organisation's guard: an output holding an AWS key is withheld (the tap throws: fail closed). */
const withholder: MewcodePlugin = definePlugin({
  name: 'acme-dlp',
  required: true,
  apply(kernel) {
    kernel.hooks.postToolUse.tapPromise('acme-dlp', async (result) => {
      if (/AKIA[0-9A-Z]{16}/.test(result.content)) throw new Error('output holds a credential');
      return result;
    });
  },
});

/** A turn that reads `file`, reporting `inputTokens` of usage. */
function read(file: string, inputTokens = 10): Step {
  return [
    { type: 'tool_calls', calls: [call('read_file', { file_path: file })] },
    { type: 'usage', usage: usage(inputTokens) },
    { type: 'done', content: [], stopReason: 'tool_use' },
  ];
}
const SUMMARY = '<analysis>x</analysis>\n<summary>\n## 1. Primary request and intent\nRead the files.\n</summary>';

/**
 * `first` is the turn whose file is summarised; then filler.txt (summarised too), big.txt, c.txt,
 * d.txt (the kept tail). The usage after d.txt crosses the threshold of the 100,000 window: the
 * next request is the summary, the one after it continues from the compacted history.
 */
function script(first: Step): Step[] {
  return [first, read('filler.txt'), read('big.txt'), read('c.txt'), read('d.txt', 70_000), say(SUMMARY), say('done')];
}

async function boot(plugins: MewcodePlugin[], steps: Step[]): Promise<{ kernel: Kernel; reporter: MemoryReporter; requests: () => readonly ModelRequest[] }> {
  const trust = await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, flag: true });
  const { kernel, model, reporter } = await bootKernel(steps, [outputLimits, toolReadFile, createPermissionRulesPlugin(), trustPlugin(trust), createCompactionPlugin(), createSessionPlugin(), ...plugins], {
    projectRoot: dirs.root,
    homeDir: dirs.home,
  });
  return { kernel, reporter, requests: () => model.requests };
}

/** Runs the script; returns the recovery attachment the continued request carries, every request, and the session file. */
async function compacted(kernel: Kernel, requests: () => readonly ModelRequest[], mode: PermissionMode = 'bypassPermissions'): Promise<{ recovered: string; sent: string; saved: string }> {
  const events = await runPrompt(kernel, 'read the files', mode);
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'done' });
  expect(events.filter((event) => event.type === 'compaction_end')).toEqual([expect.objectContaining({ reason: 'auto', changed: true })]);
  const all = requests();
  expect(all).toHaveLength(7);
  const head = all[6]!.messages[0]!;
  expect(head.role).toBe('user');
  const texts = head.role === 'user' ? head.content.map((block) => (block.type === 'text' ? block.text : '')) : [];
  expect(texts[0]!.startsWith(SUMMARY_INTRO)).toBe(true);
  const recovered = texts[1]!;
  expect(recovered).toContain('# Recovered context');
  // The other summarised file is recovered as before: the gate lets an ordinary read through.
  expect(recovered).toContain('### filler.txt\n```\nfiller 0 ');
  const saved = readFileSync(transcriptFile(dirs.root, kernel.session.sessionId, 'main'), 'utf8');
  await kernel.shutdown();
  return { recovered, sent: JSON.stringify(all), saved };
}

test('a redacting postToolUse plugin: the recovered secrets.txt is the redacted text; no request and no session file holds the key', async () => {
  const { kernel, requests } = await boot([redactor], script(read('secrets.txt')));
  const { recovered, sent, saved } = await compacted(kernel, requests);
  expect(recovered).toContain(`### secrets.txt\n\`\`\`\naws_access_key_id = ${REDACTED}\nregion = eu-west-1\n\n\`\`\``);
  expect(sent).not.toContain(KEY);
  expect(saved).not.toContain(KEY);
  expect(saved).toContain(REDACTED);
});

test('a withholding postToolUse plugin (it throws): nothing of secrets.txt is recovered, only its name; no request and no session file holds the key', async () => {
  const { kernel, requests } = await boot([withholder], script(read('secrets.txt')));
  // The model's own read was withheld, so it does not count as read (read_file's delivered-reads.ts);
  // the tracker may still list the file (a write records it too): the recovery then meets the plugin.
  const file = path.join(dirs.root, 'secrets.txt');
  kernel.container.get<FileReadTracker>(TOKENS.FileReads).recordRead(file, statSync(file).mtimeMs);
  const { recovered, sent, saved } = await compacted(kernel, requests);
  expect(recovered).not.toContain('### secrets.txt');
  expect(recovered).not.toContain('region = eu-west-1');
  expect(recovered).toMatch(/Not shown \(.*\): secrets\.txt\./);
  expect(sent).not.toContain(KEY);
  expect(saved).not.toContain(KEY);
});

test('a file a Read deny rule covers is not recovered, though the read tracker lists it', async () => {
  writeSettings(dirs, 'project', { deny: ['Read(./private.txt)'] });
  writeFileSync(path.join(dirs.root, 'private.txt'), 'db_password = hunter2-PRIVATE\n');
  const { kernel, requests } = await boot([], script(read('secrets.txt')));
  // The tracker is the kernel's, shared by every session and fed by writes too; whatever put the path there, the rule decides now.
  const file = path.join(dirs.root, 'private.txt');
  kernel.container.get<FileReadTracker>(TOKENS.FileReads).recordRead(file, statSync(file).mtimeMs);
  const { recovered, sent, saved } = await compacted(kernel, requests);
  expect(recovered).toContain('### secrets.txt'); // no policy on it here
  expect(recovered).not.toContain('### private.txt');
  expect(recovered).toMatch(/Not shown \(.*\): private\.txt\./);
  expect(sent).not.toContain('hunter2-PRIVATE');
  expect(saved).not.toContain('hunter2-PRIVATE');
});

test('a file under a Read ask rule, read once with the user\'s approval, is not recovered: nobody is asked for the recovery', async () => {
  writeSettings(dirs, 'project', { ask: ['Read(./private.txt)'] });
  writeFileSync(path.join(dirs.root, 'private.txt'), 'db_password = hunter2-PRIVATE\n');
  const { kernel, requests, reporter } = await boot([], script(read('private.txt')));
  const asked: string[] = [];
  kernel.output.attach({
    ...reporterOutput(reporter),
    approve: async (request) => {
      asked.push(`${request.toolName} ${request.target.kind === 'path' ? path.basename(request.target.path) : ''}`);
      return { choice: 'allow_once', answeredBy: 'test-ui' };
    },
  });
  const { recovered } = await compacted(kernel, requests, 'default');
  expect(asked).toEqual(['read_file private.txt']); // the model's read; the recovery asked no one
  expect(requests()[1]!.messages.at(-1)).toMatchObject({ role: 'tool', results: [{ isError: false, content: expect.stringContaining('hunter2-PRIVATE') }] });
  expect(recovered).not.toContain('### private.txt');
  expect(recovered).toMatch(/Not shown \(.*\): private\.txt\./);
  // The approved read was summarised: the continued request does not hold the file again.
  expect(JSON.stringify(requests()[6])).not.toContain('hunter2-PRIVATE');
});

test("a sub-agent's compaction recovers through the same gate, as that sub-agent's call: the redactor's output, never the key", async () => {
  const { kernel, requests } = await boot([redactor], script(read('secrets.txt')));
  const seen: string[] = [];
  kernel.hooks.postToolUse.tapPromise('test-seen', async (result, context) => {
    if (context.call.id.startsWith('compaction-recovery-')) seen.push(`${context.agentId} ${context.parentAgentId} ${path.basename(String(context.input.file_path))}`);
    return result;
  });
  const sub = kernel.createSession({ parent: kernel.session, agentType: 'explore' });
  const events: AgentEvent[] = [];
  for await (const event of sub.run({ prompt: 'read the files', mode: 'bypassPermissions' })) events.push(event);
  expect(doneEvent(events)).toMatchObject({ reason: 'completed', finalText: 'done' });
  expect(events.filter((event) => event.type === 'compaction_end')).toEqual([expect.objectContaining({ reason: 'auto', changed: true })]);
  expect(seen).toEqual([`${sub.agentId} main filler.txt`, `${sub.agentId} main secrets.txt`]);
  const recovered = JSON.stringify(requests()[6]!.messages[0]);
  expect(recovered).toContain(`aws_access_key_id = ${REDACTED}`);
  expect(JSON.stringify(requests())).not.toContain(KEY);
  await kernel.shutdown();
});
