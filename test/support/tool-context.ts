/**
 * A ToolContext for calling a tool directly (no kernel). `session` throws on any use: the file
 * and search tools never touch the calling session, and a test that makes one do so should fail
 * loudly rather than pass on a stand-in.
 */
import type { AgentSession } from '../../types/session.js';
import type { ToolContext } from '../../types/tools.js';

const noSession = new Proxy({} as AgentSession, {
  get(_target, key) {
    throw new Error(`the test's ToolContext has no session (read ${String(key)})`);
  },
});

/** No kernel runs the call: a tool that hands over output after returning fails the test loudly. */
export const noLateOutput = (): never => {
  throw new Error("the test's ToolContext has no kernel to pass late output through postToolUse");
};

export function toolContext(overrides: Partial<ToolContext> & Pick<ToolContext, 'projectRoot'>): ToolContext {
  return {
    signal: new AbortController().signal,
    homeDir: overrides.projectRoot,
    sessionId: 's',
    agentId: 'main',
    session: noSession,
    toolCallId: 'c',
    lateOutput: noLateOutput,
    ...overrides,
  };
}
