/**
 * User hooks through the built CLI (issue 13): Claude Code hook scripts, in plain shell and in
 * Python, configured exactly as Claude Code documents them (the `hooks` object of settings.json)
 * but in MewCode's settings file. What the model receives is read from the scripted server's log.
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lastUserTexts, REPO_ROOT, removeTempDirs, scenario, type Scenario } from './helpers.js';
import { hookImport, loadedFiles } from './load-hook.js';

afterEach(removeTempDirs);

/**
 * These hooks are the user's own, run as Claude Code runs them: on the host, in a project the
 * user trusts (in an untrusted one they run in the OS sandbox, test/plugins/hooks/untrusted-project.test.ts).
 */
const trustedScenario: typeof scenario = (turns, body, protocol) =>
  scenario(turns, (s) => {
    s.env.MEWCODE_TRUST_PROJECT = '1';
    return body(s);
  }, protocol);

type Hooks = Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]>;

/** `~/.mewcode/settings.yaml` with Claude's JSON (JSON is YAML). */
function userHooks(s: Scenario, hooks: Hooks): void {
  mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(s.home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks }, null, 2));
}

function script(s: Scenario, name: string, text: string): string {
  const file = path.join(s.home, name);
  writeFileSync(file, text, { mode: 0o755 });
  return file;
}

const toolResults = (body: any): any[] => (body.messages.at(-1).content as any[]).filter((b) => b.type === 'tool_result');

// A dangerous-command blocker as Claude Code's docs show it: reads .tool_input.command, exit 2 + stderr.
const BLOCKER_SH = `#!/bin/sh
input=$(cat)
command=$(printf '%s' "$input" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_input"]["command"])')
case "$command" in
  *"git push"*) echo "Pushing is not allowed from the agent: open a pull request instead" >&2; exit 2 ;;
esac
exit 0
`;

test('acceptance: a Claude Code PreToolUse script that blocks by exit 2 blocks the command, and its reason reaches the model', async () => {
  await trustedScenario([{ toolCalls: [{ id: 'c1', name: 'bash', input: { command: 'git push origin main', description: 'push' } }] }, { text: 'understood' }], async (s) => {
    const blocker = script(s, 'block-push.sh', BLOCKER_SH);
    userHooks(s, { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: blocker }] }] });
    const result = await s.run(['-p', 'push it', '--allowedTools', 'Bash']);
    expect(result.code).toBe(0);
    const [blocked] = toolResults(s.requests[1]!.body);
    expect(blocked.is_error).toBe(true);
    expect(blocked.content).toMatch(/^\[hook \/.*settings\.yaml:\d+:\d+\] Pushing is not allowed from the agent: open a pull request instead$/);
    // Logged: rule, event, exit, decision.
    const log = readFileSync(path.join(s.cwd, '.mewcode', 'hooks.log'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(log).toEqual([expect.objectContaining({ event: 'PreToolUse', exit: 'exit 2', decision: 'blocked' })]);
  });
});

test('acceptance: a UserPromptSubmit script returning additionalContext changes the request', async () => {
  await trustedScenario([{ text: 'ok' }], async (s) => {
    const adder = script(
      s,
      'context.py',
      `#!/usr/bin/env python3
import json, sys
payload = json.load(sys.stdin)
assert payload["hook_event_name"] == "UserPromptSubmit" and payload["session_id"]
print(json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "Current sprint: 42; prompt was " + payload["prompt"]}}))
`,
    );
    userHooks(s, { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `python3 ${adder}` }] }] });
    const result = await s.run(['-p', 'plan the week']);
    expect(result.code).toBe(0);
    expect(lastUserTexts(s.requests[0]!.body).join('\n')).toContain('Current sprint: 42; prompt was plan the week');
  });
});

test('PostToolUse on Write|Edit: a formatter reads .tool_input.file_path (absolute, as Claude Code gives it)', async () => {
  await trustedScenario(
    [{ toolCalls: [{ id: 'c1', name: 'write_file', input: { path: 'notes.txt', content: 'hello\n' } }] }, { text: 'written' }],
    async (s) => {
      const formatter = script(
        s,
        'format.py',
        `import json, os, sys
d = json.load(sys.stdin)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "formatted.log"), "a") as out:
    out.write(d["tool_name"] + " " + d["tool_input"]["file_path"] + "\\n")
`,
      );
      userHooks(s, { PostToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: `python3 ${formatter}` }] }] });
      const result = await s.run(['-p', 'write notes', '--permission-mode', 'acceptEdits']);
      expect(result.code).toBe(0);
      expect(readFileSync(path.join(s.cwd, 'formatted.log'), 'utf8')).toBe(`Write ${path.join(s.cwd, 'notes.txt')}\n`);
    },
  );
});

test('a Stop hook that blocks sends the agent back once; stop_hook_active is true the second time', async () => {
  await trustedScenario([{ text: 'done' }, { text: 'tests pass now' }], async (s) => {
    const stop = script(
      s,
      'stop.py',
      `import json, sys
d = json.load(sys.stdin)
if not d["stop_hook_active"]:
    print(json.dumps({"decision": "block", "reason": "Run the tests before you stop"}))
`,
    );
    userHooks(s, { Stop: [{ hooks: [{ type: 'command', command: `python3 ${stop}` }] }] });
    const result = await s.run(['-p', 'fix it', '--output-format', 'json']);
    expect(result.code).toBe(0);
    expect(lastUserTexts(s.requests[1]!.body)).toContain('Run the tests before you stop');
    expect(JSON.parse(result.stdout).result).toBe('tests pass now');
    expect(s.requests).toHaveLength(2);
  });
});

test('updatedInput rewrites a bash command before it runs; additionalContext reaches the next request', async () => {
  await trustedScenario([{ toolCalls: [{ id: 'c1', name: 'bash', input: { command: 'echo original', description: 'say' } }] }, { text: 'ok' }], async (s) => {
    const rewrite = script(
      s,
      'rewrite.sh',
      `#!/bin/sh
cat >/dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"rewritten","updatedInput":{"command":"echo rewritten-by-hook"},"additionalContext":"Commands run in a clean checkout."}}'
`,
    );
    userHooks(s, { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: rewrite }] }] });
    const result = await s.run(['-p', 'say', '--allowedTools', 'Bash']);
    expect(result.code).toBe(0);
    const body = s.requests[1]!.body;
    expect(toolResults(body)[0].content).toContain('rewritten-by-hook');
    expect(JSON.stringify(body.messages)).toContain('Commands run in a clean checkout.');
  });
});

test('no hook failure is silent: a failing hook and a timed-out one are shown and logged, and the call goes on', async () => {
  await trustedScenario([{ toolCalls: [{ id: 'c1', name: 'bash', input: { command: 'echo ran', description: 'x' } }] }, { text: 'ok' }], async (s) => {
    const failing = script(s, 'fail.sh', '#!/bin/sh\necho "config missing" >&2\nexit 1\n');
    // The slow hook would hold the call for a minute; the bound below is far under that yet far
    // over the 0.5 s timeout plus a loaded machine's start-up, so it only fails when the timeout
    // is not enforced.
    const slow = script(s, 'slow.sh', '#!/bin/sh\nsleep 60\n');
    userHooks(s, { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: failing }, { type: 'command', command: slow, timeout: 0.5 }] }] });
    const started = Date.now();
    const result = await s.run(['-p', 'x', '--allowedTools', 'Bash']);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/hook .* \(PreToolUse\) failed: exited with 1: config missing/);
    expect(result.stderr).toMatch(/hook .* \(PreToolUse\) failed: timed out/);
    expect(toolResults(s.requests[1]!.body)[0].content).toContain('ran');
    const log = readFileSync(path.join(s.cwd, '.mewcode', 'hooks.log'), 'utf8');
    expect(log).toContain('"exit":"exit 1"');
    expect(log).toContain('"exit":"timeout"');
  });
});

test('project hooks run only in a trusted project', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    const marker = path.join(s.cwd, 'hook-ran');
    mkdirSync(path.join(s.cwd, '.mewcode'), { recursive: true });
    writeFileSync(
      path.join(s.cwd, '.mewcode', 'settings.yaml'),
      `hooks:\n  UserPromptSubmit:\n    - hooks:\n        - type: command\n          command: touch ${marker}\n`,
    );
    const untrusted = await s.run(['-p', 'hi']);
    expect(untrusted.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(untrusted.stderr).toContain('.mewcode/settings.yaml: hooks');
    s.server.push({ text: 'ok' });
    const trusted = await s.run(['-p', 'hi', '--trust-project']);
    expect(trusted.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });
});

test('a settings file with a bad hook entry names the file and line, and the good entries still run', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    const marker = path.join(s.cwd, 'good-ran');
    mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
    writeFileSync(
      path.join(s.home, '.mewcode', 'settings.yaml'),
      [
        'hooks:',
        '  PreToolUse:',
        '    - matcher: "("',
        '      hooks: [{ type: command, command: "true" }]',
        '  UserPromptSubmit:',
        '    - hooks:',
        '        - { type: webhook, url: "http://x" }',
        `        - { type: command, command: "touch ${marker}" }`,
        '  OnSave:',
        '    - hooks: []',
        '',
      ].join('\n'),
    );
    const result = await s.run(['-p', 'hi']);
    expect(result.code).toBe(0);
    const file = path.join(s.home, '.mewcode', 'settings.yaml');
    expect(result.stderr).toContain(`${file}:3:16: hooks.PreToolUse[0].matcher "(" is not a valid regular expression`);
    expect(result.stderr).toContain(`${file}:7:11: hooks.UserPromptSubmit[0].hooks[0]: type "webhook" is not supported`);
    expect(result.stderr).toContain(`unknown hook event "OnSave"`);
    expect(existsSync(marker)).toBe(true);
  });
});

test('a project hook runs inside the OS sandbox: it may write the project, not outside it', async () => {
  const { OsCommandSandbox } = await import('../../plugins/sandbox-os/service.js');
  await scenario([{ text: 'ok' }], async (s) => {
    const sandboxActive = (await new OsCommandSandbox({ homeDir: s.home, warn: () => undefined }).probe()).active;
    if (process.env.MEWCODE_REQUIRE_SANDBOX === '1') expect(sandboxActive).toBe(true);
    const outside = path.join('/var/tmp', `mewcode-hook-outside-${process.pid}`);
    const inside = path.join(s.cwd, 'inside');
    mkdirSync(path.join(s.cwd, '.mewcode'), { recursive: true });
    writeFileSync(path.join(s.cwd, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch ${inside}; touch ${outside}` }] }] } }));
    const result = await s.run(['-p', 'hi', '--trust-project']);
    expect(result.code).toBe(0);
    expect(existsSync(inside)).toBe(true);
    expect(existsSync(outside)).toBe(!sandboxActive);
  });
});

test("an untrusted project: the user's own formatter hook runs in the OS sandbox, so the repository's planted node_modules/.bin/prettier never runs on the host", async () => {
  const { OsCommandSandbox } = await import('../../plugins/sandbox-os/service.js');
  await scenario([{ toolCalls: [{ id: 'w', name: 'write_file', input: { file_path: 'notes.md', content: '# hi\n' } }] }, { text: 'done' }], async (s) => {
    const sandboxActive = (await new OsCommandSandbox({ homeDir: s.home, warn: () => undefined }).probe()).active;
    if (process.env.MEWCODE_REQUIRE_SANDBOX === '1') expect(sandboxActive).toBe(true);
    const outside = path.join('/var/tmp', `mewcode-hook-untrusted-${process.pid}`);
    rmSync(outside, { force: true });
    mkdirSync(path.join(s.cwd, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(path.join(s.cwd, 'node_modules', '.bin', 'prettier'), `#!/bin/sh\ntouch "$PWD/formatted"\ntouch ${outside}\n`, { mode: 0o755 });
    // What `npx prettier --write …` does: the project's node_modules/.bin first.
    userHooks(s, { PostToolUse: [{ matcher: 'Write|Edit', hooks: [{ type: 'command', command: 'PATH="$PWD/node_modules/.bin:$PATH" prettier --write notes.md' }] }] });
    try {
      const result = await s.run(['-p', 'go', '--permission-mode', 'acceptEdits']);
      expect(result.code).toBe(0);
      expect(existsSync(outside)).toBe(false);
      const notices = result.stderr.split('\n').filter((line) => line.includes('hooks: this project is not trusted'));
      expect(notices).toHaveLength(1);
      if (sandboxActive) {
        expect(existsSync(path.join(s.cwd, 'formatted'))).toBe(true); // it ran, contained
        expect(notices[0]).toContain('your own hooks run inside the OS sandbox');
      }
    } finally {
      rmSync(outside, { force: true });
    }
  });
});

test('mewcode hooks lists each rule with its file and line, trust state and run counts', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    userHooks(s, { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'true' }] }], PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 1' }] }] });
    mkdirSync(path.join(s.cwd, '.mewcode'), { recursive: true });
    writeFileSync(path.join(s.cwd, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo project' }] }] } }));
    expect((await s.run(['-p', 'hi'])).code).toBe(0);
    const list = await s.run(['hooks']);
    expect(list.code).toBe(0);
    const file = path.join(s.home, '.mewcode', 'settings.yaml');
    expect(list.stdout).toContain(`${file} (user, your own file)`);
    expect(list.stdout).toMatch(/ {2}UserPromptSubmit: true\n {4}.*settings\.yaml:\d+:\d+ — 1 runs: 1 ok, 0 blocked, 0 failed/);
    expect(list.stdout).toMatch(/ {2}PreToolUse \[Bash\]: exit 1\n {4}.* — not run yet/);
    expect(list.stdout).toContain(`${path.join(s.cwd, '.mewcode', 'settings.yaml')} (project, untrusted: its hooks do not run`);
    const trusted = await s.run(['hooks', '--trust-project']);
    expect(trusted.stdout).toMatch(/\(project, trusted project file\)\n {2}Stop: echo project \(sandboxed\)/);
  });
});

test('mewcode hooks lists MewCode rule files too, the project one only as untrusted until trusted', async () => {
  await scenario([], async (s) => {
    mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
    writeFileSync(path.join(s.home, '.mewcode', 'hooks.yaml'), 'hooks:\n  - name: style\n    event: UserPromptSubmit\n    only_once: true\n    action: { type: prompt, text: "Use British spelling." }\n');
    mkdirSync(path.join(s.cwd, '.mewcode'), { recursive: true });
    writeFileSync(path.join(s.cwd, '.mewcode', 'hooks.yaml'), 'hooks:\n  - name: lint\n    event: PostToolUse\n    action: { type: shell, command: "npm run lint" }\n');
    const list = await s.run(['hooks']);
    expect(list.stdout).toContain(`${path.join(s.cwd, '.mewcode', 'hooks.yaml')} (untrusted: its rules do not run`);
    expect(list.stdout).toMatch(/ {2}style on UserPromptSubmit: prompt: Use British spelling\. \(only once\)\n {4}.*hooks\.yaml:2:5 — not run yet/);
    const trusted = await s.run(['hooks', '--trust-project']);
    expect(trusted.stdout).toMatch(/ {2}lint on PostToolUse: npm run lint \(sandboxed\)/);
  });
});

test('/hooks in a session (here headless: -p "/hooks") lists the same rules, trust state and run counts as mewcode hooks', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    userHooks(s, { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'true' }] }] });
    mkdirSync(path.join(s.cwd, '.mewcode'), { recursive: true });
    writeFileSync(path.join(s.cwd, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo project' }] }] } }));
    expect((await s.run(['-p', 'hi'])).code).toBe(0);
    const list = await s.run(['-p', '/hooks']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`${path.join(s.home, '.mewcode', 'settings.yaml')} (user, your own file)`);
    expect(list.stdout).toMatch(/ {2}UserPromptSubmit: true\n {4}.*settings\.yaml:\d+:\d+ — 1 runs: 1 ok, 0 blocked, 0 failed/);
    expect(list.stdout).toContain(`${path.join(s.cwd, '.mewcode', 'settings.yaml')} (project, untrusted: its hooks do not run`);
  });
});

test('/hooks with no hook file says where hooks go', async () => {
  await scenario([], async (s) => {
    const list = await s.run(['-p', '/hooks']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('No hooks configured');
  });
});

test('a settings file with permission rules and no hooks loads no hook code; one with hooks does', async () => {
  // The chunk that holds the hooks runtime (found by a string only it has).
  const chunks = path.join(REPO_ROOT, 'dist', 'chunks');
  const runtime = readdirSync(chunks).filter((name) => name.endsWith('.js') && readFileSync(path.join(chunks, name), 'utf8').includes('stop_hook_active'));
  expect(runtime).toHaveLength(1);
  const loaded = (log: string): boolean => loadedFiles(log).some((file) => path.basename(file) === runtime[0]);
  await scenario([{ text: 'ok' }, { text: 'ok' }], async (s) => {
    mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
    const settings = path.join(s.home, '.mewcode', 'settings.yaml');
    writeFileSync(settings, 'permissions:\n  allow: ["Bash(npm run test:*)"]\n  deny: ["Read(./.env)"]\n');
    const plainHook = hookImport();
    const plain = await s.run(['-p', 'hi'], { env: { NODE_OPTIONS: plainHook.nodeOptions } });
    expect([plain.code, loaded(plainHook.log)]).toEqual([0, false]);
    expect(loadedFiles(plainHook.log).length).toBeGreaterThan(0); // the hook did see modules load
    writeFileSync(settings, 'permissions:\n  allow: ["Bash(npm run test:*)"]\nhooks:\n  Stop:\n    - hooks:\n        - { type: command, command: "true" }\n');
    const hooksHook = hookImport();
    const withHooks = await s.run(['-p', 'hi'], { env: { NODE_OPTIONS: hooksHook.nodeOptions } });
    expect([withHooks.code, loaded(hooksHook.log)]).toEqual([0, true]);
  });
});
