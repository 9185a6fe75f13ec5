/**
 * Opening an editor session: one MewCode kernel per ACP session, booted as `mewcode -p` would be
 * in the session's cwd (workspace trust, configuration, every plugin: the permission layers, the
 * OS sandbox and the audit log included), with the editor as its front end. The one place a
 * session's extra plugins are chosen (`extraPlugins` below): bindings only this front end can
 * provide join the run there.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { RequestError, type AgentContext, type ClientCapabilities, type McpServer } from '@agentclientprotocol/sdk';
import { terminalWriter } from '../../config/terminal-safe.js';
import type { RunningKernel, SubcommandContext } from '../../types/cli.js';
import type { NotificationPayload } from '../../types/hooks.js';
import { messageLines, noticeLine } from '../../types/notice-line.js';
import type { ApprovalOutcome, ApprovalRequest } from '../../types/permissions.js';
import { definePlugin, type CliOptions, type MewcodePlugin, type UserInterface } from '../../types/plugin.js';
import { AcpSession, type SessionPlace } from './acp-session.js';
import { EditSnapshots, editSnapshotPlugin, readBeforeFromDisk, readBeforeFromEditor } from './edit-snapshots.js';
import { editorFiles, editorIoPlugin } from './editor-io.js';
import { mcpServersFromAcp } from './mcp-servers.js';
import { startingMode } from './modes.js';
import { ACP_UI_NAME } from './permission-options.js';
import { HELD_IN_THIS_PROCESS } from '../../sdk/session-files.js';

export interface OpenSession {
  cwd: string;
  mcpServers: readonly McpServer[];
  /** session/load: the saved MewCode session to resume. */
  resumeId?: string;
}

export interface Connection {
  client: AgentContext;
  clientCapabilities: ClientCapabilities;
}

/**
 * The kernel's front end for one session. Until the session exists (during the boot) its notices
 * are kept for it and nothing can be approved (no run happens then).
 */
class SessionFrontEnd implements UserInterface {
  readonly name = ACP_UI_NAME;
  session: AcpSession | undefined;
  /** What the kernel said while it booted: handed to the session, which says it to the editor. */
  readonly early: NotificationPayload[] = [];

  readonly output = {
    notify: (payload: NotificationPayload): void => {
      if (this.session) return this.session.notify(payload);
      this.early.push(payload);
    },
    approve: async (request: ApprovalRequest): Promise<ApprovalOutcome> => {
      if (!this.session) return { choice: 'deny', answeredBy: ACP_UI_NAME, reason: 'the editor session is not open yet' };
      return this.session.approve(request);
    },
  };

  handles(): boolean {
    return false; // chosen by `mewcode acp` itself, never by the CLI
  }

  async run(): Promise<number> {
    return 2; // sessions run through AcpSession.prompt
  }
}

/** The saved session is open in another kernel of this process (this agent's own session of that id). */
export class SessionOpenHere extends Error {}

/** Sub-agents' results, for the calls of theirs the editor was asked about (their events stay in the sub-agent). */
function subAgentResultsPlugin(frontEnd: SessionFrontEnd): MewcodePlugin {
  return definePlugin({
    name: 'ui-acp-subagent-results',
    apply(kernel) {
      // After every policy (900–999) and the audit (1000), as the session store (2000): the editor
      // gets the output an organisation's redaction let out, or its withheld notice, never the raw one.
      kernel.hooks.postToolUse.tapPromise({ name: 'ui-acp-subagent-results', stage: 2000 }, async (result, context) => {
        frontEnd.session?.subAgentCallEnded(context.call, result);
        return result;
      });
    },
  });
}

/** What an editor asked for that cannot be opened, as the JSON-RPC error it gets. */
function openError(error: unknown, request: OpenSession): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (request.resumeId !== undefined && message.includes(`is open ${HELD_IN_THIS_PROCESS}`)) return new SessionOpenHere(message);
  if (/^No provider configured|^No API key for provider/.test(message)) return RequestError.authRequired({ cwd: request.cwd }, message);
  if (request.resumeId !== undefined && /no session .* in this project|cannot continue the session/.test(message)) return new RequestError(-32002, `Resource not found: ${message}`, { sessionId: request.resumeId });
  return RequestError.internalError({ cwd: request.cwd }, message);
}

function checkCwd(cwd: string): void {
  if (!path.isAbsolute(cwd)) throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path (got "${cwd}")`);
  let directory = false;
  try {
    directory = statSync(cwd).isDirectory();
  } catch {
    directory = false;
  }
  if (!directory) throw RequestError.invalidParams({ cwd }, `cwd is not a directory: ${cwd}`);
}

export async function openAcpSession(context: SubcommandContext, base: Omit<CliOptions, 'cwd'>, request: OpenSession, connection: Connection, place: SessionPlace): Promise<AcpSession> {
  checkCwd(request.cwd);
  const { servers, warnings } = mcpServersFromAcp(request.mcpServers);
  for (const warning of warnings) context.err(messageLines('mewcode: warning: ', warning));
  const options: CliOptions = { ...base, cwd: request.cwd };
  if (Object.keys(servers).length > 0) options.mcpServers = servers;
  if (request.resumeId !== undefined) options.resumeId = request.resumeId;

  const frontEnd = new SessionFrontEnd();
  // The editor's buffers and terminals, for what the client advertised (editor-io.ts). Their
  // requests name the session, which exists once the kernel has booted: no tool runs before that.
  const sessionId = (): string => {
    if (!frontEnd.session) throw new Error('the editor session is not open yet');
    return frontEnd.session.sessionId;
  };
  const io = { client: connection.client, sessionId, capabilities: connection.clientCapabilities, cwd: request.cwd };
  const editorIo = editorIoPlugin({ ...io, onTerminal: (toolCallId, terminalId, command) => frontEnd.session?.showTerminal(toolCallId, terminalId, command) });
  // The diff an edit shows starts from what the edit applies to: the editor's buffer when it has one.
  const readText = editorFiles(io)?.readText;
  const snapshots = new EditSnapshots(readText ? readBeforeFromEditor(readText) : readBeforeFromDisk);
  const extraPlugins: MewcodePlugin[] = [editSnapshotPlugin(snapshots), subAgentResultsPlugin(frontEnd), ...(editorIo ? [editorIo] : [])];

  let running: RunningKernel;
  try {
    running = await context.openRun(options, frontEnd, extraPlugins);
  } catch (error) {
    // No session for them: said on stderr, as any agent-level problem.
    const complain = terminalWriter(process.stderr);
    for (const payload of frontEnd.early) if (payload.kind === 'notice' || payload.kind === 'warning') complain(noticeLine(payload));
    throw openError(error, request);
  }
  const kernel = running.kernel;
  const session = new AcpSession(kernel.session.sessionId, running, connection.client, snapshots, startingMode(kernel, options), place);
  for (const payload of frontEnd.early.splice(0)) session.notify(payload);
  frontEnd.session = session;
  return session;
}
