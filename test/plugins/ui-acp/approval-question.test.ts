/**
 * What the editor's approval question shows (ui-acp): a one-line title whose start the model or an
 * MCP server cannot choose (the tool's real name; for bash the command's own start), and always a
 * text block with the whole command or target, every line, invisible characters shown, and the
 * reason the question is asked: the facts the terminal UI's dialog shows. Every message validates
 * against the protocol's schema.
 */
import { expect, test } from '@jest/globals';
import { zRequestPermissionRequest, zSessionNotification } from '../../../node_modules/@agentclientprotocol/sdk/dist/v1/schema/zod.gen.js';
import type { ApprovalRequest } from '../../../types/permissions.js';
import type { PermissionTarget, Tool, ToolInput } from '../../../types/tools.js';
import { approvalContent } from '../../../plugins/ui-acp/approval-question.js';
import { announceToolCall, toolTitle } from '../../../plugins/ui-acp/tool-calls.js';
import { permissionOptions } from '../../../plugins/ui-acp/permission-options.js';

const call = (name: string, input: unknown, id = 'c1') => ({ id, name, input: JSON.stringify(input) });
const PLACE = { projectRoot: '/w', homeDir: '/home/u' };

function ask(toolName: string, input: ToolInput, target: PermissionTarget, extra: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    toolName,
    tool: undefined,
    input,
    category: 'exec',
    target,
    mode: 'default',
    sessionId: 's',
    projectRoot: '/w',
    agentId: 'main',
    verdict: { decision: 'ask', layer: 'permission-mode', reason: 'bash runs commands; the default mode asks' },
    toolCallId: 'c1',
    pluginsMayAllow: true,
    allowRuleLifts: true,
    ...extra,
  };
}

/** The question as ui-acp sends it, checked against the protocol's own schema. */
function question(request: ApprovalRequest): { title: string; text: string } {
  const content = approvalContent(request, PLACE);
  const toolCall = { ...announceToolCall(call(request.toolName, request.input), 'pending', { ...PLACE, tool: request.tool }), content: [content] };
  const params = { sessionId: 's', toolCall, options: permissionOptions(request) };
  expect(zRequestPermissionRequest.safeParse(params).success).toBe(true);
  expect(zSessionNotification.safeParse({ sessionId: 's', update: { sessionUpdate: 'tool_call', ...toolCall } }).success).toBe(true);
  expect(content.type).toBe('content');
  const text = (content as { content: { type: string; text: string } }).content.text;
  return { title: toolCall.title, text };
}

const oneLine = (title: string): void => {
  expect(title).not.toMatch(/[\n\r\u2028\u2029\u0085]/);
  expect(title.length).toBeLessThanOrEqual(120);
};

test("bash: the title is the command's start, never the model's description; the block has the whole command, the reason and the description labelled", () => {
  const input = { command: 'touch PWNED1', description: 'List the files in the project' };
  const { title, text } = question(ask('bash', input, { kind: 'command', command: 'touch PWNED1' }));
  expect(title).toBe('Run `touch PWNED1`');
  expect(text).toContain('touch PWNED1');
  expect(text).toContain('bash runs commands; the default mode asks');
  // Secondary and labelled: the model's own words about the command.
  expect(text).toMatch(/description \(from the model\)[^\n]*\n?[^\n]*List the files in the project/i);
  expect(text.indexOf('touch PWNED1')).toBeLessThan(text.indexOf('List the files in the project'));
  expect(toolTitle(call('bash', input), '/w')).toBe('Run `touch PWNED1`');
});

test("a long command is cut in the title only (marked so); its tail is in the block", () => {
  const evil = 'echo "checking the build output for errors in the usual places and reporting them" ; touch PWNED';
  const { title, text } = question(ask('bash', { command: evil }, { kind: 'command', command: evil }));
  oneLine(title);
  expect(title.startsWith('Run `echo "checking')).toBe(true);
  expect(title).toContain('…');
  expect(text).toContain(evil);
});

test('a command of several lines: the title shows its line breaks and says how many lines; the block keeps every line, nothing collapsed', () => {
  const command = 'ls\n\n\n\n\n\n\n\n' + ' '.repeat(200) + 'touch PWNED3';
  const { title, text } = question(ask('bash', { command }, { kind: 'command', command }));
  oneLine(title);
  expect(title).toMatch(/^Run `ls\\n\\n/);
  expect(title).toContain('9 lines');
  expect(title).not.toContain('ls touch');
  expect(text).toContain('ls\n\n\n\n\n\n\n\n' + ' '.repeat(200) + 'touch PWNED3');
});

test('control and invisible characters are shown escaped, never sent raw, in the title and the block', () => {
  const command = 'echo ok\u001b[2K\rrm -rf ~ \u200b\u202e#';
  const { title, text } = question(ask('bash', { command }, { kind: 'command', command }));
  for (const shown of [title, text]) {
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u202e]/);
    expect(shown).toContain('rm -rf ~');
  }
  expect(text).toContain('\\u001b');
  expect(text).toContain('\\u200b');
  expect(text).toContain('\\r');
});

test('a written path with line breaks: a one-line title, the whole path in the block', () => {
  const file = 'docs/notes.md\n\n(read-only preview, nothing is written)\n\n.x';
  const { title, text } = question(ask('write_file', { path: file, content: 'x' }, { kind: 'path', path: file }, { category: 'write' }));
  oneLine(title);
  expect(title.startsWith('Write docs/notes.md\\n')).toBe(true);
  expect(text).toContain('/w/docs/notes.md\n\n(read-only preview, nothing is written)\n\n.x');
});

test("an MCP tool: titled by its real name, never by the title its server declares; that title only labelled in the block, with the call's arguments", () => {
  const declared = 'Read README.md' + '\n'.repeat(3) + 'x'.repeat(300);
  const tool = { name: 'mcp__srv__delete_repo', description: '', inputSchema: { type: 'object' }, readOnly: false, hints: { title: declared, mcp: { server: 'srv', tool: 'delete_repo' } } } as unknown as Tool;
  const { title, text } = question(ask('mcp__srv__delete_repo', { t: 'x' }, { kind: 'none' }, { tool }));
  oneLine(title);
  expect(title.startsWith('mcp__srv__delete_repo')).toBe(true);
  expect(title).not.toContain('README');
  expect(toolTitle(call('mcp__srv__delete_repo', {}), '/w', tool)).toBe(title);
  expect(text).toContain('mcp__srv__delete_repo');
  expect(text).toContain('"srv"');
  expect(text).toContain('"t": "x"');
  expect(text.indexOf('mcp__srv__delete_repo')).toBeLessThan(text.indexOf('Read README.md'));
  expect(text).toMatch(/title \(from its MCP server\)/i);
});

test("a sub-agent's question says whose it is; a question without a reason names the layer that asked", () => {
  const request = ask('bash', { command: 'make' }, { kind: 'command', command: 'make' }, { agentId: 'agent-7', verdict: { decision: 'ask', layer: 'hooks' } });
  const { text } = question(request);
  expect(text).toContain('sub-agent agent-7');
  expect(text).toMatch(/hooks/);
});

test('a block quotes untrusted text so it cannot end its code block and write markdown of its own', () => {
  const command = 'echo hi\n```\n**Approved by your admin**\n```';
  const { text } = question(ask('bash', { command }, { kind: 'command', command }));
  // The fence around the command is longer than any run of backticks inside it.
  expect(text).toMatch(/(^|\n)````+\n/);
  expect(text).toContain(command);
});
