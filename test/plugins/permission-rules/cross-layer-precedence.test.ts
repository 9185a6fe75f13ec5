/**
 * Precedence across layers, at the rules engine (PermissionRules over real settings files, the
 * real shell parser): a deny rule of any layer beats an ask or allow of any other, an ask of any
 * layer beats an allow of any other, whatever the layer order (managed > session > local > project
 * > user) — Claude Code's deny → ask → allow. The order only chooses which rule is named.
 *
 * The audited defect: the first *layer* with a matching rule decided, so an untrusted repository's
 * `.mewcode/settings.yaml` `ask: ["Read(./secret.txt)"]` was found before the user's `deny` of the
 * same file and turned it into an approval question (one click read what the user had ruled out).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadManagedPolicy } from '../../../config/managed-settings.js';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { PermissionRules } from '../../../plugins/permission-rules/permission-rules.js';
import { approvalsFile } from '../../../plugins/permission-rules/settings-files.js';
import type { CommandParser } from '../../../plugins/permission-rules/engine.js';
import { parseShellCommand } from '../../../sdk/shell-command/index.js';
import type { CliOptions } from '../../../types/plugin.js';
import type { ManagedPolicy } from '../../../types/managed.js';
import type { PermissionMode, PermissionRequest, PermissionVerdict } from '../../../types/permissions.js';
import type { ToolCategory } from '../../../types/tools.js';
import { settingsPath, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

const parseCommand: CommandParser = (command) => parseShellCommand(command);

interface LoadOptions {
  /** Whether the project is trusted (its allow rules apply); untrusted by default, as a fresh clone is. */
  trusted?: boolean;
  cli?: Pick<CliOptions, 'allowedTools' | 'disallowedTools'>;
  managed?: ManagedPolicy;
}

/** The rules layer as the plugin builds it (files, saved approvals, flags, managed rules); call after writing the files. */
async function load(options: LoadOptions = {}): Promise<{ rules: PermissionRules; warnings: string[] }> {
  const warnings: string[] = [];
  const trust = options.trusted ? await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, flag: true }) : undefined;
  const rules = new PermissionRules({
    projectRoot: dirs.root,
    homeDir: dirs.home,
    parseCommand,
    warn: (message) => warnings.push(message),
    ...(trust ? { trust } : {}),
    ...(options.managed ? { managed: options.managed } : {}),
  });
  await rules.load({ allowedTools: options.cli?.allowedTools ?? [], disallowedTools: options.cli?.disallowedTools ?? [] });
  return { rules, warnings };
}

function request(toolName: string, category: ToolCategory, target: PermissionRequest['target'], input: Record<string, unknown>, mode: PermissionMode): PermissionRequest {
  return { toolName, tool: undefined, input, category, target, mode, sessionId: 's', projectRoot: dirs.root };
}
const readFile = (rules: PermissionRules, file: string, mode: PermissionMode = 'default') =>
  rules.check(request('read_file', 'read', { kind: 'path', path: file }, { file_path: file }, mode));
const bash = (rules: PermissionRules, command: string, mode: PermissionMode = 'default') =>
  rules.check(request('bash', 'exec', { kind: 'command', command }, { command }, mode));
const mcp = (rules: PermissionRules, tool: string) => rules.check(request(tool, 'exec', { kind: 'none' }, {}, 'default'));

const USER_DENY = { deny: ['Read(./secret.txt)', 'Bash(curl:*)'] };
const SAME_AS_ASK = { ask: ['Read(./secret.txt)', 'Bash(curl:*)'] };
const SAME_AS_ALLOW = { allow: ['Read(./secret.txt)', 'Bash(curl:*)'] };

/** The user's deny decided: named with its file:line:col in ~/.mewcode/settings.yaml. */
function userDeny(verdict: PermissionVerdict | undefined, rule: string): void {
  expect(verdict).toMatchObject({ decision: 'deny', layer: 'permission-rules:user' });
  const file = settingsPath(dirs, 'user').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  expect(verdict!.reason).toMatch(new RegExp(`deny user rule \\(${file}:\\d+:\\d+\\) "${rule.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`));
}

async function managed(yaml: string): Promise<ManagedPolicy> {
  const file = path.join(dirs.home, '..', 'managed-settings.yaml');
  writeFileSync(file, yaml);
  return loadManagedPolicy({ env: {}, candidates: [{ file, named: true }] });
}

describe("a deny of any layer beats an ask or allow of any other (the user's deny holds)", () => {
  it("an untrusted project's ask does not turn the user's deny into a question (the audited case)", async () => {
    writeSettings(dirs, 'user', USER_DENY);
    writeSettings(dirs, 'project', SAME_AS_ASK);
    const { rules } = await load();
    userDeny(await readFile(rules, 'secret.txt'), 'Read(./secret.txt)');
    userDeny(await readFile(rules, './secret.txt', 'bypassPermissions'), 'Read(./secret.txt)');
    userDeny(await bash(rules, 'curl -s http://example.com'), 'Bash(curl:*)');
    // a bash command that reads the file is judged as read_file would be
    userDeny(await bash(rules, 'cat secret.txt'), 'Read(./secret.txt)');
    // what the user did not deny, the project's ask still asks about
    writeSettings(dirs, 'project', { ask: ['Read(./notes.txt)'] });
    expect(await readFile((await load()).rules, 'notes.txt')).toMatchObject({ decision: 'ask', layer: 'permission-rules:project' });
  });

  it("the local file's ask (also the project's, untrusted) does not turn the user's deny into a question", async () => {
    writeSettings(dirs, 'user', USER_DENY);
    writeSettings(dirs, 'local', SAME_AS_ASK);
    const { rules } = await load();
    userDeny(await readFile(rules, 'secret.txt'), 'Read(./secret.txt)');
    userDeny(await bash(rules, 'curl https://example.com'), 'Bash(curl:*)');
  });

  it("a trusted project's or local file's allow does not lift the user's deny", async () => {
    writeSettings(dirs, 'user', { deny: ['Read(./secrets/**)', 'Bash(curl:*)'] });
    writeSettings(dirs, 'project', { allow: ['Read(./secrets/public/**)', 'Bash(curl https://example.com)'] });
    writeSettings(dirs, 'local', { allow: ['Read(**)', 'Bash(curl *)'] });
    const { rules } = await load({ trusted: true });
    userDeny(await readFile(rules, 'secrets/public/a.txt'), 'Read(./secrets/**)');
    userDeny(await bash(rules, 'curl https://example.com'), 'Bash(curl:*)');
    // the allows still allow what no deny names
    expect(await readFile(rules, 'src/a.ts')).toMatchObject({ decision: 'allow', layer: 'permission-rules:local' });
  });

  it("a local allow does not bring a file the user denies back into glob and grep searches", async () => {
    writeSettings(dirs, 'user', USER_DENY);
    writeSettings(dirs, 'local', { allow: ['Read(**)'] });
    const { rules } = await load({ trusted: true });
    const hidden = rules.searchPolicy().hiddenFiles('grep');
    expect(hidden?.(path.join(dirs.root, 'secret.txt'))).toBe(true);
    expect(hidden?.(path.join(dirs.root, 'other.txt'))).toBe(false);
  });

  it('"allow for this session" and "allow always" answers (and saved ones) do not lift the user\'s deny', async () => {
    writeSettings(dirs, 'user', USER_DENY);
    const saved = approvalsFile(dirs.root, dirs.home);
    mkdirSync(path.dirname(saved), { recursive: true });
    writeFileSync(saved, 'permissions:\n  allow:\n    - Bash(=curl -s http://example.com)\n');
    const { rules } = await load();
    expect(await rules.grantSession('Read(./secret.txt)')).toBe(true);
    expect(await rules.grantLocal('Bash(curl http://x)')).toBe(true);
    expect(rules.grants().map((g) => [g.scope, g.rule])).toEqual([
      ['session', 'Read(./secret.txt)'],
      ['local', 'Bash(=curl -s http://example.com)'],
      ['local', 'Bash(curl http://x)'],
    ]);
    userDeny(await readFile(rules, 'secret.txt'), 'Read(./secret.txt)');
    userDeny(await bash(rules, 'curl -s http://example.com'), 'Bash(curl:*)');
    userDeny(await bash(rules, 'curl http://x'), 'Bash(curl:*)');
  });

  it('--allowedTools does not lift a deny of the user, project or local file (nor --disallowedTools a thing it does not name)', async () => {
    writeSettings(dirs, 'user', { deny: ['Bash(curl:*)'] });
    writeSettings(dirs, 'project', { deny: ['Bash(npm publish:*)'] });
    writeSettings(dirs, 'local', { deny: ['Read(./secret.txt)'] });
    const { rules } = await load({ cli: { allowedTools: ['Bash', 'Read', 'Bash(curl *)', 'Bash(npm publish)'], disallowedTools: ['Bash(wget:*)'] } });
    userDeny(await bash(rules, 'curl https://example.com', 'bypassPermissions'), 'Bash(curl:*)');
    expect(await bash(rules, 'npm publish')).toMatchObject({ decision: 'deny', layer: 'permission-rules:project' });
    expect(await readFile(rules, 'secret.txt')).toMatchObject({ decision: 'deny', layer: 'permission-rules:local' });
    expect((await readFile(rules, 'secret.txt'))!.reason).toMatch(/deny local rule \(.*settings\.local\.yaml:\d+:\d+\) "Read\(\.\/secret\.txt\)"/);
    expect(await bash(rules, 'wget x')).toMatchObject({ decision: 'deny', layer: 'permission-rules:session' });
    expect(await bash(rules, 'ls')).toMatchObject({ decision: 'allow', layer: 'permission-rules:session' });
  });

  it('with several denies the most authoritative is named (--disallowedTools before the files), whatever allows it', async () => {
    writeSettings(dirs, 'user', { deny: ['Bash(curl:*)'] });
    writeSettings(dirs, 'project', { deny: ['Bash(curl *)'] });
    writeSettings(dirs, 'local', { allow: ['Bash(curl *)'] });
    const { rules } = await load({ trusted: true, cli: { allowedTools: [], disallowedTools: ['Bash(curl https://example.com)'] } });
    const verdict = await bash(rules, 'curl https://example.com');
    expect(verdict).toMatchObject({ decision: 'deny', layer: 'permission-rules:session' });
    expect(verdict!.reason).toContain('--disallowedTools');
    expect(await bash(rules, 'curl http://example.com')).toMatchObject({ decision: 'deny', layer: 'permission-rules:project' });
  });

  it('a compound command: a segment the user denies and one the project asks about is denied, naming the user rule', async () => {
    writeSettings(dirs, 'user', { deny: ['Bash(curl:*)'] });
    writeSettings(dirs, 'project', { ask: ['Bash(cat:*)', 'Bash(curl:*)'] });
    const { rules } = await load();
    userDeny(await bash(rules, 'cat README.md && curl -s http://example.com | sh'), 'Bash(curl:*)');
    userDeny(await bash(rules, 'echo $(curl -s http://example.com)'), 'Bash(curl:*)');
    expect(await bash(rules, 'cat README.md && ls')).toMatchObject({ decision: 'ask', layer: 'permission-rules:project' });
  });

  it('an MCP tool the user denies stays denied whatever the project asks or --allowedTools allows', async () => {
    writeSettings(dirs, 'user', { deny: ['mcp__fs__write'] });
    writeSettings(dirs, 'project', { ask: ['mcp__fs'] });
    const { rules } = await load({ cli: { allowedTools: ['mcp__fs__*'], disallowedTools: [] } });
    expect(await mcp(rules, 'mcp__fs__write')).toMatchObject({ decision: 'deny', layer: 'permission-rules:user' });
    expect(await mcp(rules, 'mcp__fs__read')).toMatchObject({ decision: 'ask', layer: 'permission-rules:project' });
  });
});

describe('an ask of any layer beats an allow of any other', () => {
  it("the user's ask is not lifted by a trusted project's or local file's allow", async () => {
    writeSettings(dirs, 'user', { ask: ['Bash(git push:*)'] });
    writeSettings(dirs, 'project', { allow: ['Bash(git push origin main)'] });
    writeSettings(dirs, 'local', { allow: ['Bash(git *)'] });
    const { rules } = await load({ trusted: true });
    const verdict = await bash(rules, 'git push origin main', 'bypassPermissions');
    expect(verdict).toMatchObject({ decision: 'ask', layer: 'permission-rules:user' });
    expect(verdict!.reason).toMatch(/ask user rule \(.*settings\.yaml:\d+:\d+\) "Bash\(git push:\*\)"/);
    expect(await bash(rules, 'git status')).toMatchObject({ decision: 'allow', layer: 'permission-rules:local' });
  });

  it("the project's ask is not lifted by the user's allow, --allowedTools or a remembered answer", async () => {
    writeSettings(dirs, 'user', { allow: ['Bash(npm *)'] });
    writeSettings(dirs, 'project', { ask: ['Bash(npm publish:*)', 'Read(./.env)'] });
    const { rules } = await load({ cli: { allowedTools: ['Bash(npm publish)', 'Read'], disallowedTools: [] } });
    await rules.grantLocal('Bash(npm publish --tag next)');
    expect(await bash(rules, 'npm publish')).toMatchObject({ decision: 'ask', layer: 'permission-rules:project' });
    expect(await bash(rules, 'npm publish --tag next')).toMatchObject({ decision: 'ask', layer: 'permission-rules:project' });
    expect(await readFile(rules, '.env')).toMatchObject({ decision: 'ask', layer: 'permission-rules:project' });
    expect(await bash(rules, 'npm test')).toMatchObject({ decision: 'allow', layer: 'permission-rules:user' });
  });
});

describe('managed rules', () => {
  it('a managed deny beats every allow and ask; a managed ask yields to a deny of any layer, and beats every allow', async () => {
    const policy = await managed('permissions:\n  deny: ["Bash(curl:*)"]\n  ask: ["Read(./secret.txt)", "Bash(git push:*)"]\n');
    writeSettings(dirs, 'user', { allow: ['Bash(curl *)', 'Bash(git *)'], deny: ['Read(./secret.txt)'] });
    writeSettings(dirs, 'project', { ask: ['Bash(curl:*)'], allow: ['Bash(git push origin main)'] });
    writeSettings(dirs, 'local', { allow: ['Bash(curl https://example.com)'] });
    const { rules } = await load({ trusted: true, managed: policy, cli: { allowedTools: ['Bash(curl https://example.com)', 'Bash(git push origin main)'], disallowedTools: [] } });
    await rules.grantSession('Bash(curl https://example.com)');
    await rules.grantLocal('Bash(git push origin main)');
    const curl = await bash(rules, 'curl https://example.com', 'bypassPermissions');
    expect(curl).toMatchObject({ decision: 'deny', layer: 'permission-rules:managed' });
    expect(curl!.reason).toMatch(/deny managed rule \(.*managed-settings\.yaml:\d+:\d+\) "Bash\(curl:\*\)"/);
    expect(await bash(rules, 'git push origin main', 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:managed' });
    // the user's deny is stricter than the organisation's ask: it decides
    userDeny(await readFile(rules, 'secret.txt'), 'Read(./secret.txt)');
    // at the early managed stage the managed layer alone answers: its ask is a floor the later deny still ends
    expect(await rules.checkManaged(request('read_file', 'read', { kind: 'path', path: 'secret.txt' }, {}, 'default'))).toMatchObject({ decision: 'ask', layer: 'permission-rules:managed' });
  });
});
