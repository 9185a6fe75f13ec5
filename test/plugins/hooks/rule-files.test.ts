/**
 * MewCode's own hook rule files (H2–H7): compile checks with file and line, conditions (a
 * missing field is absent), the shell / prompt / http actions, first block wins, only_once counts
 * successful runs only, fail_closed, duplicates, and workspace trust for the project's file.
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { conditionHolds } from '../../../plugins/hooks/rule-engine.js';
import { fieldAt, renderTemplate } from '../../../plugins/hooks/template.js';
import { loadRuleFiles, parseDuration } from '../../../plugins/hooks/rule-file.js';
import type { ToolMessage } from '../../../types/messages.js';
import type { Tool } from '../../../types/tools.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { ruleSetup, trustedProject } from './rule-setup.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';

afterEach(removeTempDirs);

const setup = ruleSetup;

const writeTool: Tool = { name: 'write_file', description: 'writes', inputSchema: { type: 'object' }, readOnly: false, execute: async (input) => ({ content: `wrote ${String(input.path)}` }) };
const lastResults = (request: { messages: readonly unknown[] } | undefined): ToolMessage['results'] => ((request?.messages.at(-1) as ToolMessage | undefined)?.results ?? []);

test('the compile checks: each bad rule is skipped with its file, line and problem; the good ones load', async () => {
  const { root, home } = setup(
    [
      'hooks:',
      '  - event: PreToolUse', // 1 no name
      '    action: { type: shell, command: "true" }',
      '  - name: bad-event',
      '    event: OnSave', // 2
      '    action: { type: shell, command: "true" }',
      '  - name: bad-action',
      '    event: Stop',
      '    action: { type: email }', // 3
      '  - name: no-command',
      '    event: Stop',
      '    action: { type: shell }', // 4
      '  - name: no-text',
      '    event: Stop',
      '    action: { type: prompt }', // 5
      '  - name: no-url',
      '    event: Stop',
      '    action: { type: http }', // 6
      '  - name: both',
      '    event: Stop',
      '    if: { all_of: [], any_of: [] }', // 8
      '    action: { type: prompt, text: x }',
      '  - name: neither',
      '    event: Stop',
      '    if: {}', // 9
      '    action: { type: prompt, text: x }',
      '  - name: no-field',
      '    event: Stop',
      '    if: { all_of: [ { match: { type: exact, value: x } } ] }', // 10
      '    action: { type: prompt, text: x }',
      '  - name: no-value',
      '    event: Stop',
      '    if: { all_of: [ { field: reason, match: { type: regex } } ] }', // 11
      '    action: { type: prompt, text: x }',
      '  - name: no-inner',
      '    event: Stop',
      '    if: { all_of: [ { field: reason, match: { type: not } } ] }', // 12
      '    action: { type: prompt, text: x }',
      '  - name: bad-timeout',
      '    event: Stop',
      '    timeout: soon', // 13
      '    action: { type: prompt, text: x }',
      '  - name: async-blocking',
      '    event: PreToolUse',
      '    async: true', // 14
      '    action: { type: shell, command: "true" }',
      '  - name: subagent',
      '    event: Stop',
      '    action: { type: subagent, agent_name: reviewer }', // 7
      '  - name: good',
      '    event: Stop',
      '    action: { type: prompt, text: fine }',
      '  - name: good',
      '    event: Stop',
      '    action: { type: prompt, text: again }',
      '',
    ].join('\n'),
  );
  const loaded = await loadRuleFiles(root, home, undefined);
  expect(loaded.rules.map((rule) => rule.name)).toEqual(['good']);
  const file = path.join(home, '.mewcode', 'hooks.yaml');
  const w = loaded.warnings.map((warning) => warning.replace(`${file}:`, ''));
  expect(w).toEqual([
    '2:5: hook #1: hook #1: name is required; skipped',
    '5:12: hook "bad-event": unknown event "OnSave" (known: SessionStart, SessionEnd, SessionResume, UserPromptSubmit, Stop, PreUserMessage, PreToolUse, PostToolUse, PreCompact, PostCompact, Notification, SubagentStart, SubagentStop); skipped',
    '9:21: hook "bad-action": unknown action type "email" (expected shell, prompt, http or subagent); skipped',
    '12:13: hook "no-command": shell action requires command; skipped',
    '15:13: hook "no-text": prompt action requires text; skipped',
    '18:13: hook "no-url": http action requires url; skipped',
    '21:9: hook "both": if must contain all_of or any_of, not both; skipped',
    '25:9: hook "neither": if must contain all_of or any_of; skipped',
    '29:21: hook "no-field": field is required; skipped',
    '33:45: hook "no-value": regex match requires value; skipped',
    '37:45: hook "no-inner": not match requires inner; skipped',
    '41:14: hook "bad-timeout": invalid timeout "soon" (e.g. "30s", "500ms", at most 1h); skipped',
    '45:12: hook "async-blocking": async is not allowed on the blocking event PreToolUse; skipped',
    '49:13: hook "subagent": subagent action requires prompt; skipped',
    '53:5: hook "good" is already defined at ' + file + ':50:5; this one is skipped',
  ]);
});

test('conditions: a missing field is absent, so not over it does not fire; nested fields as JSON', () => {
  const payload = { event: 'PreToolUse', tool_name: 'bash', tool_input: { command: 'rm -rf build', env: { A: '1' } } };
  const not = (field: string) => ({ mode: 'all_of' as const, atoms: [{ field, match: { type: 'not' as const, inner: { type: 'exact' as const, value: 'ls' } } }] });
  expect(conditionHolds(not('tool_input.command'), payload)).toBe(true);
  expect(conditionHolds(not('tool_input.missing'), payload)).toBe(false);
  expect(fieldAt(payload, 'tool_input.env')).toBe('{"A":"1"}');
  expect(conditionHolds({ mode: 'any_of', atoms: [{ field: 'tool_name', match: { type: 'glob', value: 'ba*' } }] }, payload)).toBe(true);
  expect(conditionHolds({ mode: 'any_of', atoms: [{ field: 'tool_name', match: { type: 'regex', value: '^x', pattern: /^x/ } }] }, payload)).toBe(false);
  expect(renderTemplate('{"tool":"{{.tool_name}}","cmd":"{{ .tool_input.command }}","none":"{{.nope}}"}', payload)).toBe('{"tool":"bash","cmd":"rm -rf build","none":""}');
  expect(parseDuration('1.5s')).toBe(1500);
  expect(parseDuration('0s')).toBeUndefined();
});

test('regex and glob conditions run in linear time: a long command does not hang them; what needs backtracking is refused', async () => {
  const { root, home } = setup(
    [
      'hooks:',
      '  - name: stars',
      '    event: PreToolUse',
      `    if: { any_of: [ { field: tool_input.command, match: { type: regex, value: "^(a|aa)+$" } }, { field: tool_input.path, match: { type: glob, value: "**/${'*a'.repeat(8)}*b" } } ] }`,
      '    action: { type: prompt, text: x }',
      '  - name: backref',
      '    event: PreToolUse',
      '    if: { all_of: [ { field: tool_input.command, match: { type: regex, value: "(a)\\\\1" } } ] }',
      '    action: { type: prompt, text: x }',
      '',
    ].join('\n'),
  );
  const loaded = await loadRuleFiles(root, home, undefined);
  expect(loaded.rules.map((rule) => rule.name)).toEqual(['stars']);
  expect(loaded.warnings).toEqual([expect.stringMatching(/hook "backref": invalid regex: backreference; skipped$/)]);
  const condition = loaded.rules[0]!.if;
  const long = 'a'.repeat(3000);
  expect(conditionHolds(condition, { tool_input: { command: `${long}!`, path: `src/${long.slice(0, 240)}` } })).toBe(false);
  expect(conditionHolds(condition, { tool_input: { command: long, path: 'x' } })).toBe(true);
  expect(conditionHolds(condition, { tool_input: { command: 'x', path: 'src/aaaaaaaab' } })).toBe(true);
});

test('a shell rule blocks a write by exit 2; a prompt rule adds context; the first block wins and later rules do not run', async () => {
  const { root, home } = setup(
    [
      'hooks:',
      '  - name: no-env',
      '    event: PreToolUse',
      '    if: { all_of: [ { field: tool_name, match: { type: exact, value: write_file } }, { field: tool_input.path, match: { type: glob, value: "**/.env*" } } ] }',
      '    action: { type: shell, command: "echo \'secrets stay out\' >&2; exit 2" }',
      '  - name: never-reached',
      '    event: PreToolUse',
      '    action: { type: shell, command: "touch never-reached" }',
      '  - name: style',
      '    event: UserPromptSubmit',
      '    action: { type: prompt, text: "Use British spelling." }',
      '',
    ].join('\n'),
  );
  const { kernel, model } = await bootKernel([useTools([call('write_file', { path: 'config/.env.local' })]), say('ok')], [toolsPlugin([writeTool]), createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'write');
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('Use British spelling.');
    expect(lastResults(model.requests[1])[0]).toMatchObject({ isError: true, content: '[hook no-env] secrets stay out' });
    expect(existsSync(path.join(root, 'never-reached'))).toBe(false);
  } finally {
    await kernel.shutdown();
  }
});

test('only_once counts successful runs only; fail_closed turns a failure into a block', async () => {
  const { root, home } = setup(
    [
      'hooks:',
      '  - name: once',
      '    event: UserPromptSubmit',
      '    only_once: true',
      '    action: { type: shell, command: "n=$(cat count 2>/dev/null || echo 0); echo $((n+1)) > count; [ $n -ge 1 ]" }',
      '  - name: guard',
      '    event: PreToolUse',
      '    fail_closed: true',
      '    action: { type: shell, command: "exit 7" }',
      '',
    ].join('\n'),
  );
  const { kernel, model } = await bootKernel([say('1'), say('2'), useTools([call('write_file', { path: 'a.txt' })]), say('3')], [toolsPlugin([writeTool]), createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'one'); // fails (count was 0): does not count
    await runPrompt(kernel, 'two'); // succeeds: counts
    await runPrompt(kernel, 'three'); // not run again
    expect(readFileSync(path.join(root, 'count'), 'utf8').trim()).toBe('2');
    expect(lastResults(model.requests[3])[0]).toMatchObject({ isError: true, content: expect.stringContaining('[hook guard] the hook failed and is fail_closed: exited with 7') });
  } finally {
    await kernel.shutdown();
  }
});

test('an http rule posts the payload (or a field-only template); a 2xx {"decision":"block"} blocks', async () => {
  const received: unknown[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      received.push({ url: request.url, body, type: request.headers['content-type'] });
      response.writeHead(200, { 'content-type': 'application/json' }).end(request.url === '/policy' ? JSON.stringify({ decision: 'block', reason: 'policy says no' }) : '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const { root, home } = setup(
    [
      'hooks:',
      '  - name: audit',
      '    event: UserPromptSubmit',
      `    action: { type: http, url: "${base}/audit", body: "prompt={{.prompt}}", headers: { content-type: text/plain } }`,
      '  - name: policy',
      '    event: PreToolUse',
      `    action: { type: http, url: "${base}/policy" }`,
      '',
    ].join('\n'),
  );
  const { kernel, model } = await bootKernel([useTools([call('write_file', { path: 'a.txt' })]), say('ok')], [toolsPlugin([writeTool]), createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'hello there');
    expect(received[0]).toEqual({ url: '/audit', body: 'prompt=hello there', type: 'text/plain' });
    expect(JSON.parse((received[1] as { body: string }).body)).toMatchObject({ event: 'PreToolUse', tool_name: 'write_file', tool_input: { path: 'a.txt' }, session_id: kernel.session.sessionId });
    expect(lastResults(model.requests[1])[0]).toMatchObject({ isError: true, content: '[hook policy] policy says no' });
  } finally {
    await kernel.shutdown();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('the project\'s hooks.yaml runs only once the project is trusted', async () => {
  const projectRules = 'hooks:\n  - name: mark\n    event: UserPromptSubmit\n    action: { type: shell, command: "touch marked" }\n';
  const { root, home } = setup('hooks: []\n', projectRules);
  const untrusted = await createWorkspaceTrust({ projectRoot: root, homeDir: home });
  expect((await loadRuleFiles(root, home, untrusted)).rules).toEqual([]);
  expect(untrusted.skipped()).toContain('.mewcode/hooks.yaml: hooks');
  const trusted = await createWorkspaceTrust({ projectRoot: root, homeDir: home, flag: true });
  const loaded = await loadRuleFiles(root, home, trusted);
  expect(loaded.rules.map((rule) => [rule.name, rule.sandboxed])).toEqual([['mark', true]]);
});
