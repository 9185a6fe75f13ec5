/**
 * A Claude Code user's hooks on built-in tools, through the built CLI: a PreToolUse guard on the
 * Skill tool reads `.tool_input.skill` (Claude Code's field) and blocks with exit 2, so the skill
 * does not load and the model is told why; an `updatedInput` asking for what MewCode cannot do
 * is refused, never run as if it had not been asked.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf, type Scenario } from './helpers.js';

beforeAll(() => prepareCli(), 120_000);
afterAll(removeTempDirs);

function put(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The user's Claude Code settings (~/.claude/settings.json), in a project the user trusts. */
function claudeUserHooks(s: Scenario, hooks: Record<string, unknown>): void {
  s.env.MEWCODE_TRUST_PROJECT = '1';
  put(path.join(s.home, '.claude', 'settings.json'), JSON.stringify({ hooks }));
}

const skill = (name: string, body: string): string => `---\nname: ${name}\ndescription: the ${name} procedure\n---\n${body} $ARGUMENTS\n`;

test('a Skill guard reading .tool_input.skill blocks the deploy skill (exit 2): it does not load, the model is told; other skills load', async () => {
  const turns = [
    { toolCalls: [{ id: 'deploy', name: 'load_skill', input: { name: 'deploy', arguments: 'prod' } }, { id: 'review', name: 'load_skill', input: { name: 'review' } }] },
    { text: 'ok' },
  ];
  await scenario(turns, async (s) => {
    const log = path.join(s.home, 'skill-inputs.log');
    const guard = path.join(s.home, 'skill-guard.py');
    put(guard, [
      'import json, sys',
      'payload = json.load(sys.stdin)',
      `open(${JSON.stringify(log)}, "a").write(json.dumps(payload["tool_input"]) + "\\n")`,
      'if payload["tool_input"].get("skill") == "deploy":',
      '    print("deploy skill is blocked here", file=sys.stderr)',
      '    sys.exit(2)',
      '',
    ].join('\n'));
    claudeUserHooks(s, { PreToolUse: [{ matcher: 'Skill', hooks: [{ type: 'command', command: `python3 ${guard}` }] }] });
    put(path.join(s.home, '.claude', 'skills', 'deploy', 'SKILL.md'), skill('deploy', 'DEPLOY-BODY run ./deploy.sh'));
    put(path.join(s.home, '.claude', 'skills', 'review', 'SKILL.md'), skill('review', 'REVIEW-BODY read the diff'));
    const result = await s.run(['-p', 'ship it']);
    expect(result.code).toBe(0);
    const inputs = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(inputs).toEqual(expect.arrayContaining([expect.objectContaining({ skill: 'deploy', args: 'prod' }), expect.objectContaining({ skill: 'review' })]));
    const blocked = toolResultOf(s.requests, 'deploy');
    expect(blocked.is_error).toBe(true);
    expect(blocked.content).toContain('deploy skill is blocked here');
    expect(toolResultOf(s.requests, 'review').is_error).toBeFalsy();
    const system = JSON.stringify(s.requests[1]!.body.system);
    expect(system).not.toContain('DEPLOY-BODY');
    expect(system).toContain('REVIEW-BODY');
  });
});

test('an updatedInput asking Bash for what MewCode has not (run_in_background) is refused, naming the field; the command does not run', async () => {
  const turns = [{ toolCalls: [{ id: 'sleep', name: 'bash', input: { command: 'touch ran.txt' } }] }, { text: 'ok' }];
  await scenario(turns, async (s) => {
    const rewrite = path.join(s.home, 'background.py');
    put(rewrite, [
      'import json, sys',
      'payload = json.load(sys.stdin)',
      'updated = dict(payload["tool_input"], run_in_background=True)',
      'print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": updated}}))',
      '',
    ].join('\n'));
    claudeUserHooks(s, { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `python3 ${rewrite}` }] }] });
    const result = await s.run(['-p', 'go']);
    expect(result.code).toBe(0);
    const refused = toolResultOf(s.requests, 'sleep');
    expect(refused.is_error).toBe(true);
    expect(refused.content).toContain('run_in_background');
    expect(result.stderr).toContain('run_in_background');
    expect(existsSync(path.join(s.cwd, 'ran.txt'))).toBe(false);
  });
});
