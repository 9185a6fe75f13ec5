// A required policy plugin (the user's configuration names it, as an organisation's would be named
// in managed settings) judges every file read for the model through instruction files: a project's
// CLAUDE.md importing @.env, an AGENTS.md import chain, and a subfolder's CLAUDE.md loaded when a
// file tool first touches that folder. The secret never reaches the model; the warning names the
// importing file, its line and the policy; the audit log records the decision.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const POLICY = `export default (api) => api.definePlugin({ name: 'org-policy', apply(k) {
  k.hooks.checkPermission.tapPromise({ name: 'org-policy', stage: api.PermissionStage.Sandbox + 50 }, async (r) => {
    if (/\\.env$/.test(String(r.target?.path ?? ''))) return { decision: 'deny', layer: 'org-policy', reason: 'no .env' };
    return undefined;
  });
}});
`;

function setUp(s: { home: string; cwd: string }): void {
  const policy = join(s.home, 'org-policy.mjs');
  writeFileSync(policy, POLICY);
  mkdirSync(join(s.home, '.mewcode'), { recursive: true });
  writeFileSync(join(s.home, '.mewcode', 'config.yaml'), `plugins:\n  - use: ${JSON.stringify(policy)}\n    required: true\n`);
  writeFileSync(join(s.cwd, '.env'), 'AWS_SECRET=TOPSECRET-ENV-VALUE\n');
}

function auditDecisions(cwd: string): Record<string, unknown>[] {
  return readFileSync(join(cwd, '.mewcode', 'audit.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((r) => r.type === 'decision');
}

test("a policy plugin's deny keeps a CLAUDE.md import (and one down an AGENTS.md chain) out of the system prompt, warned and audited", async () => {
  await scenario([{ text: 'done' }], async (s) => {
    setUp(s);
    writeFileSync(join(s.cwd, 'CLAUDE.md'), '# Project\nSee @.env for settings. Marker ROOT-RULES-81\n');
    mkdirSync(join(s.cwd, 'docs'));
    writeFileSync(join(s.cwd, 'docs', 'notes.md'), 'Marker NOTES-82 @../prod.env\n');
    writeFileSync(join(s.cwd, 'prod.env'), 'DB_PASSWORD=TOPSECRET-PROD-VALUE\n');
    writeFileSync(join(s.cwd, 'AGENTS.md'), 'Agents: @docs/notes.md\n');
    const r = await s.run(['-p', 'go']);
    expect(r.code).toBe(0);
    const sent = JSON.stringify(s.requests.map((q) => q.body));
    expect(sent).not.toContain('TOPSECRET');
    expect(sent).toContain('ROOT-RULES-81');
    expect(sent).toContain('NOTES-82');
    expect(r.stderr).toContain(`${join(s.cwd, 'CLAUDE.md')}:2: @.env is not imported: reading it was denied by org-policy: no .env`);
    expect(r.stderr).toContain(`${join(s.cwd, 'docs', 'notes.md')}:1: @../prod.env is not imported: reading it was denied by org-policy: no .env`);
    const denied = auditDecisions(s.cwd).filter((d) => d.made_by === 'system-prompt' && d.verdict === 'deny');
    expect(denied.map((d) => d.target).sort()).toEqual([join(s.cwd, '.env'), join(s.cwd, 'prod.env')]);
    expect(denied.every((d) => d.decided_by === 'org-policy')).toBe(true);
  });
}, 60_000);

test("a subfolder's CLAUDE.md importing @../.env joins the read's result without the secret", async () => {
  const turns = [{ toolCalls: [{ id: 'r1', name: 'read_file', input: { file_path: 'sub/x.txt' } }] }, { text: 'done' }];
  await scenario(turns, async (s) => {
    setUp(s);
    mkdirSync(join(s.cwd, 'sub'));
    writeFileSync(join(s.cwd, 'sub', 'x.txt'), 'x\n');
    writeFileSync(join(s.cwd, 'sub', 'CLAUDE.md'), 'Marker SUB-RULES-83: @../.env\n');
    const r = await s.run(['-p', 'go']);
    expect(r.code).toBe(0);
    const result = toolResultOf(s.requests, 'r1').content;
    expect(result).toContain('SUB-RULES-83');
    expect(JSON.stringify(s.requests.map((q) => q.body))).not.toContain('TOPSECRET');
    expect(r.stderr).toContain(`${join(s.cwd, 'sub', 'CLAUDE.md')}:1: @../.env is not imported: reading it was denied by org-policy: no .env`);
    expect(auditDecisions(s.cwd).some((d) => d.made_by === 'system-prompt' && d.target === join(s.cwd, '.env') && d.verdict === 'deny')).toBe(true);
  });
}, 60_000);
