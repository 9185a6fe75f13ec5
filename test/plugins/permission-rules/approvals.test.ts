/** A9: allow for this session / allow always, the persisted rule, list and revoke. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { approvalsFile } from '../../../plugins/permission-rules/settings-files.js';
import type { Kernel } from '../../../kernel/kernel.js';
import type { ApprovalChoice } from '../../../types/permissions.js';
import { definePlugin, type UserOutput } from '../../../types/plugin.js';
import { APPROVALS, suggestRule, type Approvals } from '../../../plugins/permission-rules/index.js';
import { doneEvent, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { bash, bootRules, edit, executed, outcome, settingsPath, tempDirs, writeSettings, type Dirs } from './helpers.js';
import { rawHooks } from './raw-hooks.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
  executed.length = 0;
});
afterEach(() => dirs.cleanup());

/** The user, answering every approval with `choice` in the active interface, and the questions counted. */
function answering(choice: ApprovalChoice, asked: string[]): UserOutput['approve'] {
  return async (request) => {
    asked.push(request.target.kind === 'command' ? request.target.command : request.toolName);
    return { choice, answeredBy: 'test-ui' };
  };
}

async function runCommands(kernel: Kernel): Promise<void> {
  expect(doneEvent(await runPrompt(kernel, 'go', 'default')).reason).toBe('completed');
}

function steps(commands: string[]) {
  return [...commands.flatMap((command) => [useTools([call('bash', { command })])]), say('done')];
}

const approvals = (kernel: Kernel) => kernel.container.get<Approvals>(APPROVALS);
/** Where "allow always" saves: the user's own file for this project, in ~/.mewcode. */
const saved = () => approvalsFile(dirs.root, dirs.home);
function writeSaved(text: string): string {
  mkdirSync(path.dirname(saved()), { recursive: true });
  writeFileSync(saved(), text);
  return saved();
}

describe('allow always', () => {
  it('persists an exact rule that never widens: rm -rf build/* does not allow rm -rf src', async () => {
    const asked: string[] = [];
    const { kernel } = await bootRules(dirs, { approve: answering('allow_always', asked), steps: steps(['rm -rf build/*', 'rm -rf build/*']) });
    await runCommands(kernel);
    // asked once, then applied at once for the second identical call
    expect(asked).toEqual(['rm -rf build/*']);
    expect(executed).toHaveLength(2);

    expect(existsSync(settingsPath(dirs, 'local'))).toBe(false); // not in the project
    expect(readFileSync(saved(), 'utf8')).toBe('permissions:\n  allow:\n    - Bash(=rm -rf build/*)\n');
    expect(await outcome(bash(kernel, 'rm -rf build/*'))).toBe('allow');
    expect(await outcome(bash(kernel, 'rm -rf src'))).toBe('mode:ask');
    expect(await outcome(bash(kernel, 'rm -rf build/x'))).toBe('mode:ask');

    // a later session reads it from the file, whether the project is trusted or not (the answer is the user's)
    const later = (await bootRules(dirs, { trust: false })).kernel;
    expect(await outcome(bash(later, 'rm -rf build/*'))).toBe('allow');
    expect(await outcome(bash(later, 'rm -rf src'))).toBe('mode:ask');
  });

  it('keeps the file\'s other content and comments, and does not duplicate', async () => {
    const original = [
      '# my personal settings',
      'permissions:',
      '  # things I trust',
      '  allow:',
      '    - Bash(npm test) # the test suite',
      '  deny: [] # nothing yet',
      '  default_mode: default',
      'other_tool:',
      '  key: value # keep me',
      '',
    ].join('\n');
    writeSaved(original);
    const asked: string[] = [];
    const { kernel } = await bootRules(dirs, { approve: answering('allow_always', asked), steps: steps(['make build']) });
    await runCommands(kernel);
    const after = readFileSync(saved(), 'utf8');
    expect(after).toBe(original.replace('    - Bash(npm test) # the test suite\n', '    - Bash(npm test) # the test suite\n    - Bash(make build)\n'));

    // the same approval again (e.g. from another session that asked before the file changed)
    const again = await bootRules(dirs);
    await rawHooks(again.kernel).permissionDecided.promise({
      request: { toolName: 'bash', tool: again.kernel.tools.get('bash'), input: { command: 'make build' }, category: 'exec', target: { kind: 'command', command: 'make build' }, mode: 'default', sessionId: 's', projectRoot: dirs.root },
      verdict: { decision: 'ask', layer: 'permission-mode' },
      approval: { choice: 'allow_always', answeredBy: 'test-ui' },
      allowed: true,
      toolCallId: 'c1',
      sessionId: 's',
      agentId: 'main',
    });
    expect(readFileSync(saved(), 'utf8')).toBe(after);
    expect(approvals(again.kernel).list().filter((g) => g.rule === 'Bash(make build)')).toHaveLength(1);
  });

  it('appends to a flow list in its own style', async () => {
    writeSaved('permissions: {allow: [Bash(make)], deny: [Bash(rm *)]} # compact\n');
    const { kernel } = await bootRules(dirs, { approve: answering('allow_always', []), steps: steps(['npm ci']) });
    await runCommands(kernel);
    expect(readFileSync(saved(), 'utf8')).toBe('permissions: {allow: [Bash(make), Bash(npm ci)], deny: [Bash(rm *)]} # compact\n');
  });

  it('a file path approval is exact and relative to the project', async () => {
    const { kernel } = await bootRules(dirs);
    const request = { toolName: 'write_file', target: { kind: 'path', path: 'src/[id]/page.tsx' }, projectRoot: dirs.root } as const;
    expect(approvals(kernel).suggestRule(request)).toBe('Write(=./src/[id]/page.tsx)');
    expect(approvals(kernel).suggestRule({ ...request, target: { kind: 'path', path: 'src/app.ts' } })).toBe('Write(./src/app.ts)');
    expect(approvals(kernel).suggestRule({ ...request, toolName: 'edit_file', target: { kind: 'path', path: '/opt/x.txt' } })).toBe('Edit(//opt/x.txt)');
    expect(suggestRule({ toolName: 'mcp__fs__read', target: { kind: 'none' }, projectRoot: dirs.root })).toBe('mcp__fs__read');
    expect(suggestRule({ toolName: 'bash', target: { kind: 'command', command: 'npm test' }, projectRoot: dirs.root })).toBe('Bash(npm test)');
    expect(suggestRule({ toolName: 'bash', target: { kind: 'command', command: '!echo hi' }, projectRoot: dirs.root })).toBe('Bash(=!echo hi)');
  });

  it('a path approval applies at once and only to that file', async () => {
    const asked: string[] = [];
    const { kernel } = await bootRules(dirs, {
      approve: answering('allow_always', asked),
      steps: [useTools([call('write_file', { file_path: 'src/*.ts' })]), say('ok')],
    });
    await runPrompt(kernel, 'go', 'default');
    expect(readFileSync(saved(), 'utf8')).toContain('Write(=./src/*.ts)');
    expect(await outcome(edit(kernel, 'src/*.ts'))).toBe('mode:ask'); // Write rule, edit tool
    expect(await outcome(bash(kernel, 'ls'))).toBe('mode:ask');
  });

  it('a compound command is approved as the whole exact line', async () => {
    const asked: string[] = [];
    const { kernel } = await bootRules(dirs, { approve: answering('allow_always', asked), steps: steps(['git status && npm test']) });
    await runCommands(kernel);
    expect(readFileSync(saved(), 'utf8')).toContain('- Bash(git status && npm test)');
    expect(await outcome(bash(kernel, 'git status && npm test'))).toBe('allow');
    expect(await outcome(bash(kernel, 'npm test'))).toBe('mode:ask');
  });
});

describe('allow for this session', () => {
  it('adds an exact session rule, not written anywhere', async () => {
    const asked: string[] = [];
    const { kernel } = await bootRules(dirs, { approve: answering('allow_session', asked), steps: steps(['npm test', 'npm test', 'npm test -- -u']) });
    await runCommands(kernel);
    expect(asked).toEqual(['npm test', 'npm test -- -u']);
    expect(existsSync(saved())).toBe(false);
    expect(approvals(kernel).list()).toEqual([
      { rule: 'Bash(npm test)', scope: 'session', source: 'approval' },
      { rule: 'Bash(npm test -- -u)', scope: 'session', source: 'approval' },
    ]);
  });

  it('allow once and deny leave no rule', async () => {
    for (const choice of ['allow_once', 'deny'] as const) {
      const { kernel } = await bootRules(dirs, { approve: answering(choice, []), steps: steps(['npm test']) });
      await runCommands(kernel);
      expect(approvals(kernel).list()).toEqual([]);
    }
  });
});

describe('the Approvals service', () => {
  it('lists session flags, session approvals and saved allow rules; revokes them', async () => {
    const file = writeSaved('# keep this comment\npermissions:\n  allow:\n    - Bash(make) # and this\n    - Read(docs/**)\n  deny:\n    - Bash(rm *)\n');
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Bash(ls *)'] } });
    const service = approvals(kernel);
    expect(service.localSettingsFile()).toBe(file);
    expect(service.list()).toEqual([
      { rule: 'Bash(ls *)', scope: 'session', source: '--allowedTools' },
      { rule: 'Bash(make)', scope: 'local', source: `${file}:4:7` },
      { rule: 'Read(docs/**)', scope: 'local', source: `${file}:5:7` },
    ]);

    expect(await service.revoke('Bash(ls *)', 'session')).toBe(true);
    expect(await outcome(bash(kernel, 'ls -la'))).toBe('mode:ask');

    expect(await service.revoke('Bash(make)', 'local')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('# keep this comment\npermissions:\n  allow:\n    - Read(docs/**)\n  deny:\n    - Bash(rm *)\n');
    expect(await outcome(bash(kernel, 'make'))).toBe('mode:ask');
    expect(service.list().map((g) => g.rule)).toEqual(['Read(docs/**)']);

    expect(await service.revoke('Bash(never-granted)', 'local')).toBe(false);
    expect(await service.revoke('Bash(never-granted)', 'session')).toBe(false);
  });

  it('a saved approvals file that does not parse is not rewritten; the grant still applies this session', async () => {
    const file = writeSaved('permissions: [oops\n');
    const { kernel, reporter } = await bootRules(dirs, { approve: answering('allow_always', []), steps: steps(['make']) });
    await runCommands(kernel);
    expect(readFileSync(file, 'utf8')).toBe('permissions: [oops\n');
    expect(reporter.warnings.some((w) => w.includes('could not save "Bash(make)"') && w.includes(file))).toBe(true);
    expect(await outcome(bash(kernel, 'make'))).toBe('allow');
  });

  it('creates the directory when needed', async () => {
    expect(existsSync(saved())).toBe(false);
    const { kernel } = await bootRules(dirs, { approve: answering('allow_always', []), steps: steps(['make']) });
    await runCommands(kernel);
    expect(readFileSync(saved(), 'utf8')).toBe('permissions:\n  allow:\n    - Bash(make)\n');
  });

  it('revoking also removes the rule from the project\'s local file (where it may have been written by hand or an earlier version)', async () => {
    const local = writeSettings(dirs, 'local', 'permissions:\n  allow:\n    - Bash(make)\n');
    const { kernel } = await bootRules(dirs);
    expect(await approvals(kernel).revoke('Bash(make)', 'local')).toBe(true);
    expect(readFileSync(local, 'utf8')).toBe('permissions:\n  allow: []\n');
  });
});

describe('saved approvals are the user\'s own', () => {
  it('"allow always" in a trusted project does not change what the trust covers: no new question at the next start', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(npm test)'] });
    await (await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, env: {} })).grant();
    const { kernel } = await bootRules(dirs, { approve: answering('allow_always', []), steps: steps(['make']) });
    await runCommands(kernel);
    const next = await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, env: {} });
    expect(next.source).toBe('stored');
  });

  it('a saved approval naming a protected file exactly passes it; the same rule in the project\'s local file does not', async () => {
    // `./.mcp.json`, as an approval is saved (suggest.ts): `.mcp.json` alone names every .mcp.json (gitignore).
    writeSettings(dirs, 'local', { allow: ['Edit(./.mcp.json)'] });
    const project = await bootRules(dirs);
    expect(await edit(project.kernel, '.mcp.json', 'acceptEdits')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
    writeSaved('permissions:\n  allow: ["Edit(./.mcp.json)"]\n');
    const user = await bootRules(dirs, { trust: false });
    expect(await edit(user.kernel, '.mcp.json', 'acceptEdits')).toMatchObject({ decision: 'allow' });
  });

  it('the file is named after the project\'s real path and lives in ~/.mewcode/approvals', () => {
    expect(path.dirname(saved())).toBe(path.join(dirs.home, '.mewcode', 'approvals'));
    expect(approvalsFile(path.join(dirs.root, '.'), dirs.home)).toBe(saved());
    expect(approvalsFile(`${dirs.root}-other`, dirs.home)).not.toBe(saved());
    expect(path.basename(approvalsFile(`/${'x'.repeat(400)}`, dirs.home)).length).toBeLessThan(255);
  });
});
