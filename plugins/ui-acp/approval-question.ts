/**
 * What an approval question says besides its title: the facts the terminal UI's dialog shows
 * (ui-tui dialogs.tsx: the tool, whose call it is, its target, the reason it asks), as a text block
 * sent with every `session/request_permission` and the `tool_call` it announces. The title is one
 * line and cut (tool-calls.ts); this block is not: the whole command or target, every line, with
 * invisible and control characters shown escaped, so nothing the call does can hide past a title's
 * end or behind a line break. What the model or an MCP server says about the call (a bash
 * `description`, a tool's declared title) comes after the facts, labelled as theirs.
 */
import type { ToolCallContent } from '@agentclientprotocol/sdk';
import type { ApprovalRequest } from '../../types/permissions.js';
import { absolutePath } from './tool-calls.js';
import { block, literal, titleLine } from './visible-text.js';

/** Tools whose whole effect is their target (the command, the file; an edit's diff is sent beside it). */
const TARGET_SAYS_IT_ALL: ReadonlySet<string> = new Set(['bash', 'read_file', 'write_file', 'edit_file']);

export function approvalContent(request: ApprovalRequest, place: { projectRoot: string; homeDir?: string }): ToolCallContent {
  const lines: string[] = [];
  const who = request.agentId && request.agentId !== 'main' ? `, asked by sub-agent ${titleLine(request.agentId)}` : '';
  lines.push(`Allow ${literal(request.toolName)}${who}?`);
  const mcp = request.tool?.hints?.mcp;
  if (mcp) lines.push(`MCP server ${literal(JSON.stringify(mcp.server))}, its tool ${literal(JSON.stringify(mcp.tool))}`);

  const target = request.target;
  if (target.kind === 'command') lines.push(`Command (whole, as it will run):\n${block(target.command)}`);
  else if (target.kind === 'path') {
    const file = absolutePath(target.path, place.projectRoot, place.homeDir);
    lines.push(`File:\n${block(file)}`);
    if (target.real !== undefined && target.real !== file) lines.push(`which leads to:\n${block(target.real)}`);
  } else if (target.kind === 'named') lines.push(`Target: ${literal(target.detail ? `${target.name} ${target.detail}` : target.name)}`);
  if (!TARGET_SAYS_IT_ALL.has(request.toolName) || target.kind === 'none') lines.push(`Arguments:\n${block(JSON.stringify(request.input ?? {}, null, 2))}`);

  const reason = request.verdict.reason;
  lines.push(`Reason: ${reason ? `${literal(reason)} (asked by ${literal(request.verdict.layer)})` : `asked by ${literal(request.verdict.layer)}`}`);

  // The caller's own words about the call: never checked against what it does.
  const description = request.toolName === 'bash' ? request.input['description'] : undefined;
  if (typeof description === 'string' && description.trim() !== '') lines.push(`Description (from the model): ${literal(description)}`);
  const declared = request.tool?.hints?.title;
  if (typeof declared === 'string' && declared.trim() !== '') lines.push(`Title (${mcp ? 'from its MCP server' : 'declared by the tool'}): ${literal(declared)}`);

  return { type: 'content', content: { type: 'text', text: lines.join('\n\n') } };
}
