/**
 * Every file the system-prompt plugin reads for the model (an instruction file, its `@path`
 * imports, a subfolder's instruction files and theirs) is judged by the whole permission chain as
 * a read_file of that file: a policy plugin's checkPermission tap is asked, the decision reaches
 * permissionDecided (the audit log records it), and a deny or an ask leaves the file out with a
 * warning naming the file and who refused it.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import permissionSandbox from '../../../plugins/permission-sandbox/index.js';
import { auditFile, createPermissionAuditPlugin } from '../../../plugins/permission-audit/index.js';
import systemPrompt from '../../../plugins/system-prompt/index.js';
import outputLimits from '../../../plugins/output-limits/index.js';
import toolReadFile from '../../../plugins/tool-read-file/index.js';
import { definePlugin } from '../../../types/plugin.js';
import { PermissionStage, type PermissionRequest } from '../../../types/permissions.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { tempDirs, type Dirs } from '../permission-rules/helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

/** An organisation's policy: no read of a file whose path ends in `.env` or lies in `~/.ssh`. */
function envPolicy(seen: string[]) {
  return definePlugin({
    name: 'org-policy',
    required: true,
    apply(kernel) {
      kernel.hooks.checkPermission.tapPromise({ name: 'org-policy', stage: PermissionStage.Sandbox + 50 }, async (request: PermissionRequest) => {
        const target = request.target.kind === 'path' ? String(request.target.path) : '';
        seen.push(`${request.toolName} ${target} ${request.madeBy ?? ''}`);
        if (/\.env$/.test(target)) return { decision: 'deny', layer: 'org-policy', reason: 'no .env' };
        if (target.includes(`${path.sep}.ssh${path.sep}`)) return { decision: 'deny', layer: 'org-policy', reason: 'no keys' };
        if (target.includes(`${path.sep}private${path.sep}`)) return { decision: 'deny', layer: 'org-policy', reason: 'private' };
        if (target.endsWith('ask.md')) return { decision: 'ask', layer: 'org-policy', reason: 'ask first' };
        return undefined;
      });
    },
  });
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

async function boot(steps: Parameters<typeof bootKernel>[0], seen: string[]) {
  return bootKernel(steps, [outputLimits, toolReadFile, permissionSandbox, createPermissionAuditPlugin(), envPolicy(seen), systemPrompt], { projectRoot: dirs.root, homeDir: dirs.home });
}

function auditRecords(): Record<string, unknown>[] {
  return readFileSync(auditFile(dirs.root), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

test("a policy's deny keeps an imported file out of the system prompt, with a warning naming the file and the policy, and the audit records it", async () => {
  write(path.join(dirs.root, '.env'), 'AWS_SECRET=TOPSECRET-ENV-VALUE\n');
  write(path.join(dirs.root, 'CLAUDE.md'), '# Project\nSee @.env for settings.\nAnd @docs/style.md\n');
  write(path.join(dirs.root, 'docs', 'style.md'), 'STYLE-MARK\nnotes @../.env\n');
  write(path.join(dirs.root, 'AGENTS.md'), 'Agents: @docs/ask.md\n');
  write(path.join(dirs.root, 'docs', 'ask.md'), 'ASKED-MARK\n');
  const seen: string[] = [];
  const { kernel, reporter } = await boot([say('done')], seen);
  try {
    await kernel.startSession();
    const prompt = kernel.session.systemPrompt();
    expect(prompt).not.toContain('TOPSECRET');
    expect(prompt).toContain('STYLE-MARK');
    expect(prompt).not.toContain('ASKED-MARK');
    const env = path.join(dirs.root, '.env');
    expect(reporter.warnings).toContainEqual(expect.stringContaining(`${path.join(dirs.root, 'CLAUDE.md')}:2: @.env is not imported`));
    expect(reporter.warnings.join('\n')).toMatch(/@\.env is not imported: .*org-policy.*no \.env/);
    expect(reporter.warnings.join('\n')).toMatch(/@docs\/ask\.md is not imported: .*ask first.*read_file/);
    expect(seen).toContain(`read_file ${env} system-prompt`);
    // The stable prompt stays the same when it is built again (the judgement is made once per session).
    kernel.session.switchModel({ model: 'other' });
    expect(kernel.session.systemPrompt()).toBe(prompt);
  } finally {
    await kernel.shutdown();
  }
  const decisions = auditRecords().filter((r) => r.type === 'decision' && r.made_by === 'system-prompt');
  expect(decisions.some((r) => JSON.stringify(r).includes('.env') && JSON.stringify(r).includes('deny'))).toBe(true);
});

test('an instruction file that is a link to a denied file is not used; the user\'s own import from the home is judged too', async () => {
  write(path.join(dirs.root, 'private', 'notes.md'), 'PRIVATE-MARK\n');
  symlinkSync(path.join('private', 'notes.md'), path.join(dirs.root, 'CLAUDE.md'));
  write(path.join(dirs.home, '.mewcode', 'CLAUDE.md'), 'Mine: @~/notes.md and @~/.ssh/id_rsa\n');
  write(path.join(dirs.home, 'notes.md'), 'MY-NOTES-MARK\n');
  write(path.join(dirs.home, '.ssh', 'id_rsa'), 'SECRET-KEY-MARK\n');
  const seen: string[] = [];
  const { kernel, reporter } = await boot([say('done')], seen);
  try {
    await kernel.startSession();
    const prompt = kernel.session.systemPrompt();
    expect(prompt).not.toContain('PRIVATE-MARK');
    expect(prompt).not.toContain('SECRET-KEY-MARK');
    // The user's own import from the home is still theirs to make: the policy had no objection.
    expect(prompt).toContain('MY-NOTES-MARK');
    expect(reporter.warnings.join('\n')).toMatch(/project\/CLAUDE\.md is not used as instructions: .*org-policy: private/);
    expect(reporter.warnings.join('\n')).toMatch(/@~\/\.ssh\/id_rsa is not imported: .*org-policy.*no keys/);
  } finally {
    await kernel.shutdown();
  }
});

test("a subfolder's CLAUDE.md importing a denied file: the import stays out of the tool's result, the rest joins it", async () => {
  write(path.join(dirs.root, '.env'), 'AWS_SECRET=TOPSECRET-ENV-VALUE\n');
  write(path.join(dirs.root, 'sub', 'x.txt'), 'x\n');
  write(path.join(dirs.root, 'sub', 'CLAUDE.md'), 'SUB-MARK rules: @../.env\n');
  const seen: string[] = [];
  const { kernel, model, reporter } = await boot([useTools([call('read_file', { file_path: 'sub/x.txt' })]), say('done')], seen);
  try {
    await kernel.startSession();
    await runPrompt(kernel, 'go', 'default');
    const sent = JSON.stringify(model.requests.map((request) => request.messages));
    expect(sent).toContain('SUB-MARK');
    expect(sent).not.toContain('TOPSECRET');
    expect(reporter.warnings).toContainEqual(expect.stringMatching(new RegExp(`${path.join(dirs.root, 'sub', 'CLAUDE.md').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1: @\\.\\./\\.env is not imported: .*org-policy.*no \\.env`)));
    expect(seen).toContain(`read_file ${path.join(dirs.root, '.env')} system-prompt`);
  } finally {
    await kernel.shutdown();
  }
  const decisions = auditRecords().filter((r) => r.type === 'decision' && r.made_by === 'system-prompt');
  expect(decisions.some((r) => JSON.stringify(r).includes('.env'))).toBe(true);
});
