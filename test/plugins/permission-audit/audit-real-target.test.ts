/**
 * A file tool's record names where its path led, not only the path as written: with `src/notes` a
 * link to `../deploy`, a write of `src/notes/prod.env` was judged (and went) at `deploy/prod.env`,
 * and a glob or grep of `src/lnk` reads `other/`. The record carries `real` whenever it differs
 * from the path: the `real` the layers judged when the tool gave one, else where the path leads.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { decisionRecord } from '../../../plugins/permission-audit/index.js';
import type { PermissionDecidedContext } from '../../../types/hooks.js';
import type { PermissionTarget } from '../../../types/tools.js';
import { installSkillTool } from '../../../plugins/skills/install-tool.js';
import type { SkillsRuntime } from '../../../plugins/skills/runtime.js';

let base: string;
let root: string;
let home: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-audit-real-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  mkdirSync(path.join(root, 'deploy'));
  mkdirSync(home);
  writeFileSync(path.join(root, 'deploy', 'prod.env'), 'OLD\n');
  symlinkSync('../deploy', path.join(root, 'src', 'notes'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

function decided(toolName: string, target: PermissionTarget): PermissionDecidedContext {
  return {
    sessionId: 's',
    agentId: 'main',
    request: { toolName, input: {}, target, category: 'write', mode: 'acceptEdits', sessionId: 's', agentId: 'main', projectRoot: root } as PermissionDecidedContext['request'],
    verdict: { decision: 'allow', layer: 'permission-mode' },
    allowed: true,
    toolCallId: 'c1',
  };
}

describe('the audit record names where a path led', () => {
  it("a write through a link: the `real` the layers judged", () => {
    const record = decisionRecord(decided('write_file', { kind: 'path', path: 'src/notes/prod.env', real: path.join(root, 'deploy', 'prod.env') }), undefined, home);
    expect(record).toMatchObject({ target: 'src/notes/prod.env', real: path.join(root, 'deploy', 'prod.env') });
  });

  it('a glob or grep of a linked folder (a target without `real`): where the path leads now', () => {
    for (const tool of ['glob', 'grep', 'read_file']) {
      const record = decisionRecord(decided(tool, { kind: 'path', path: 'src/notes' }), undefined, home);
      expect(record).toMatchObject({ tool, target: 'src/notes', real: path.join(root, 'deploy') });
    }
    // Through a link in a missing file's parents, and from the home directory.
    symlinkSync(path.join(root, 'deploy'), path.join(home, 'd'));
    expect(decisionRecord(decided('read_file', { kind: 'path', path: '~/d/new.txt' }), undefined, home)).toMatchObject({ real: path.join(root, 'deploy', 'new.txt') });
  });

  it('no `real` when the path leads where it says', () => {
    const record = decisionRecord(decided('write_file', { kind: 'path', path: 'src/a.txt', real: path.join(root, 'src', 'a.txt') }), undefined, home);
    expect(record).not.toHaveProperty('real');
    expect(decisionRecord(decided('glob', { kind: 'path', path: '.' }), undefined, home)).not.toHaveProperty('real');
    expect(decisionRecord(decided('bash', { kind: 'command', command: 'ls src/notes' }), undefined, home)).not.toHaveProperty('real');
  });

  it('install_skill names the skills folder it writes into (and the URL)', async () => {
    const tool = installSkillTool({ kernel: { homeDir: home, projectRoot: root } } as unknown as SkillsRuntime);
    const url = 'https://github.com/a/b/tree/main/skills/x';
    const user = await tool.permissionTarget!({ url });
    const project = await tool.permissionTarget!({ url, scope: 'project' });
    expect(decisionRecord(decided('install_skill', user), undefined, home)).toMatchObject({ target: `${path.join(home, '.mewcode', 'skills')} ${url}` });
    expect(decisionRecord(decided('install_skill', project), undefined, home)).toMatchObject({ target: `${path.join(root, '.mewcode', 'skills')} ${url}` });
  });
});
