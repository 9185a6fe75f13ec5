/**
 * `allow_managed_rules_only` through the BUILT CLI: no allow but the organisation's applies, and a
 * custom command's `allowed-tools` (the user's file, a project's, a Claude Code plugin's) is such an
 * allow: under the switch it pre-approves nothing (said once, naming the command), and the headless
 * refusal no longer suggests --allowedTools, which the switch ignores.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs, scenario, tempDir, type Scenario } from '../cli/helpers.js';

afterAll(() => removeTempDirs());

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function rulesOnly(): string {
  const file = path.join(tempDir('mewcode-managed-'), 'managed-settings.yaml');
  writeFileSync(file, 'permissions:\n  allow_managed_rules_only: true\n');
  return file;
}

/** Approvals in the audit log: what each asked call was answered. */
function approvals(cwd: string): { choice?: string; reason?: string }[] {
  const file = path.join(cwd, '.mewcode', 'audit.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { approval?: { choice?: string; reason?: string } }).flatMap((r) => (r.approval ? [r.approval] : []));
}

const touchTurns = (file: string) => [{ toolCalls: [{ id: 'toolu_t', name: 'bash', input: { command: `touch ${file}` } }] }, { text: 'done' }];

/** Bash asks in default mode (the OS sandbox is turned off by the user), and /go pre-approves `touch`. */
function prepare(s: Scenario): string {
  write(path.join(s.home, '.mewcode', 'config.yaml'), 'sandbox: false\n');
  write(path.join(s.home, '.mewcode', 'commands', 'go.md'), '---\nallowed-tools: Bash(touch *)\n---\nTouch it.\n');
  return path.join(s.cwd, 'touch-proof.txt');
}

describe('allow_managed_rules_only and a command\'s allowed-tools', () => {
  it('without managed settings /go\'s allowed-tools pre-approve its touch: the baseline', async () => {
    const proof = path.join(tempDir('mewcode-proof-'), 'touch-proof.txt');
    await scenario(touchTurns(proof), async (s) => {
      prepare(s);
      const r = await s.run(['-p', '/go']);
      expect(r.code).toBe(0);
      expect(existsSync(proof)).toBe(true);
    });
  });

  it('under the switch they pre-approve nothing: the call is refused, one warning names the command', async () => {
    const proof = path.join(tempDir('mewcode-proof-'), 'touch-proof.txt');
    await scenario(touchTurns(proof), async (s) => {
      prepare(s);
      const managed = rulesOnly();
      const r = await s.run(['-p', '/go'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      expect(existsSync(proof)).toBe(false);
      const warnings = r.stderr.split('\n').filter((line) => line.includes('pre-approve nothing'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`/go (${path.join(s.home, '.mewcode', 'commands', 'go.md')})`);
      expect(warnings[0]).toContain(`${managed}:2:29: allow_managed_rules_only`);
    });
  });

  it('the headless refusal says the organisation allows only its own rules, not "Allow it with --allowedTools"', async () => {
    const proof = path.join(tempDir('mewcode-proof-'), 'touch-proof.txt');
    await scenario(touchTurns(proof), async (s) => {
      prepare(s);
      const managed = rulesOnly();
      await s.run(['-p', 'go', '--allowedTools', 'Bash(touch *)'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      expect(existsSync(proof)).toBe(false);
      const [answer] = approvals(s.cwd);
      expect(answer?.choice).toBe('deny');
      expect(answer?.reason).toContain(`The organisation's managed settings allow only their own permission rules (${managed}:2:29: allow_managed_rules_only)`);
      expect(answer?.reason).not.toMatch(/Allow it with --allowedTools/);
    });
  });

  it('under --permission-mode dontAsk the refusal says the same', async () => {
    const proof = path.join(tempDir('mewcode-proof-'), 'touch-proof.txt');
    await scenario(touchTurns(proof), async (s) => {
      prepare(s);
      const managed = rulesOnly();
      await s.run(['-p', 'go', '--permission-mode', 'dontAsk'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      expect(existsSync(proof)).toBe(false);
      const [answer] = approvals(s.cwd);
      expect(answer?.reason).toContain('allow only their own permission rules');
      expect(answer?.reason).not.toMatch(/Allow it with --allowedTools/);
    });
  });
});
