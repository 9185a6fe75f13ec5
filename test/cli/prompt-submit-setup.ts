/** A user's command file and skill with `!` lines, and a UserPromptSubmit hook that records what it is given (prompt-submit tests). */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Scenario } from './helpers.js';

export const records = (log: string): Record<string, any>[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []);

/** A command file `/deploy` and a skill `/ship`, each with a `!` line that leaves a marker; a UserPromptSubmit hook `record.py <log> <exit> <stdout>`. */
export function setUpSubmitHook(s: Scenario, log: string, exit: number, stdout: string): void {
  s.env.MEWCODE_TRUST_PROJECT = '1';
  const claude = path.join(s.home, '.claude');
  mkdirSync(path.join(claude, 'commands'), { recursive: true });
  mkdirSync(path.join(claude, 'skills', 'ship'), { recursive: true });
  writeFileSync(path.join(claude, 'commands', 'deploy.md'), '---\ndescription: deploy\nallowed-tools: Bash(touch:*)\n---\nSide effect: !`touch DEPLOY-RAN.marker`\nDeploy $ARGUMENTS now.\n');
  writeFileSync(path.join(claude, 'skills', 'ship', 'SKILL.md'), '---\nname: ship\ndescription: ship it\nallowed-tools: Bash(touch:*)\n---\nShip: !`touch SHIP-RAN.marker`\nShip $ARGUMENTS carefully.\n');
  const script = path.join(claude, 'record.py');
  writeFileSync(script, ['import json, sys', 'p = json.load(sys.stdin)', 'open(sys.argv[1], "a").write(json.dumps(p) + "\\n")', 'print(sys.argv[3])', 'sys.stderr.write("no deploys today\\n")', 'sys.exit(int(sys.argv[2]))'].join('\n'));
  const quoted = (text: string): string => `'${text.replace(/'/g, "'\\''")}'`;
  writeFileSync(
    path.join(claude, 'settings.json'),
    JSON.stringify({ permissions: { allow: ['Bash(touch *)'] }, hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `python3 ${script} ${log} ${exit} ${quoted(stdout)}` }] }] } }),
  );
}

