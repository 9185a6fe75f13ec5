/**
 * The ACP agent side of `mewcode acp`: initialize (honest capabilities), authenticate,
 * session/new, session/load (replayed before it is answered), session/prompt, session/cancel and
 * session/set_mode, over one connection. A request that cannot be served is answered with a
 * JSON-RPC error naming why; the session it named stays as it was.
 */
import * as acp from '@agentclientprotocol/sdk';
import type { SubcommandContext } from '../../types/cli.js';
import type { CliOptions } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { AcpSession } from './acp-session.js';
import { authenticate, authMethods, type ProviderKey } from './auth-methods.js';
import { openAcpSession, SessionOpenHere, type Connection } from './session-opener.js';

export interface AgentSetup {
  context: SubcommandContext;
  base: Omit<CliOptions, 'cwd'>;
}

/** Build facts for initialize, read from a kernel booted to inspect (no key needed, no model called). */
async function inspectBuild(setup: AgentSetup): Promise<{ version: string; keys: ProviderKey[] }> {
  let inspection;
  try {
    inspection = await setup.context.bootKernel({ trustProject: setup.base.trustProject === true });
  } catch (error) {
    setup.context.err(`mewcode: acp: this build could not be inspected for its providers: ${error instanceof Error ? error.message : String(error)}\n`);
    return { version: 'unknown', keys: [] };
  }
  try {
    const { kernel } = inspection;
    // The inspection kernel's active provider is its stand-in, which no user configures.
    const standIn = kernel.container.isBound(TOKENS.ProviderRegistry) ? kernel.container.get(TOKENS.ProviderRegistry).active().protocol : undefined;
    const factories = kernel.container.isBound(TOKENS.ProviderFactory) ? kernel.container.getAll(TOKENS.ProviderFactory) : [];
    const keys = factories.filter((f) => f.protocol !== standIn).map((f) => ({ protocol: f.protocol, apiKeyEnv: f.apiKeyEnv }));
    return { version: kernel.version, keys };
  } finally {
    await inspection.shutdown();
  }
}

export function createAgent(setup: AgentSetup): { app: acp.AgentApp; closeAll(): Promise<void> } {
  const sessions = new Map<string, AcpSession>();
  let connection: Connection | undefined;
  let keys: ProviderKey[] = [];
  /**
   * session/loads of one id run one after another (the tail of each id's chain): a second load
   * arriving while the first replaces the open kernel would find no open session between the
   * first's shutdown and its new kernel, open a kernel of its own that runs unsaved, and orphan one.
   */
  const loads = new Map<string, Promise<unknown>>();
  /** Sessions being opened (new or load): closeAll waits for them, so none is left running. */
  const opening = new Set<Promise<unknown>>();
  let closed = false;

  const oneLoadAtATime = <T>(sessionId: string, work: () => Promise<T>): Promise<T> => {
    const run = (loads.get(sessionId) ?? Promise.resolve()).then(work, work);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    loads.set(sessionId, tail);
    void tail.then(() => {
      if (loads.get(sessionId) === tail) loads.delete(sessionId);
    });
    return run;
  };
  const tracked = <T>(work: Promise<T>): Promise<T> => {
    opening.add(work);
    const done = (): void => void opening.delete(work);
    work.then(done, done);
    return work;
  };
  /** A session opened while (or after) the connection closed is shut down, never kept. */
  const keep = async (opened: AcpSession): Promise<void> => {
    if (!closed) {
      sessions.set(opened.sessionId, opened);
      return;
    }
    await opened.shutdown();
    throw acp.RequestError.internalError({ sessionId: opened.sessionId }, 'the connection is closing');
  };

  const session = (sessionId: string): AcpSession => {
    const found = sessions.get(sessionId);
    if (!found) throw new acp.RequestError(-32002, `Resource not found: no open session "${sessionId}"; open one with session/new, or session/load for a saved one`, { sessionId });
    return found;
  };
  const place = () => ({ notices: connection?.clientCapabilities.session?.notices != null, ...(setup.base.maxTurns !== undefined ? { maxTurns: setup.base.maxTurns } : {}) });
  const connected = (client: acp.AgentContext): Connection => connection ?? { client, clientCapabilities: {} };
  // After the response is written: the editor learns the session from it first. Then the notices
  // its kernel gave while it opened (a transcript that cannot be saved) reach the editor.
  const afterResponse = (opened: AcpSession): void =>
    void setImmediate(() => {
      opened.releaseNotices();
      opened.advertiseCommands();
    });

  const app = acp
    .agent({ name: 'mewcode' })
    .onRequest(acp.methods.agent.initialize, async ({ params, client }) => {
      connection = { client, clientCapabilities: params.clientCapabilities ?? {} };
      const build = await inspectBuild(setup);
      keys = build.keys;
      return {
        protocolVersion: params.protocolVersion === acp.PROTOCOL_VERSION ? params.protocolVersion : acp.PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          // A run's prompt is text: images and audio are not accepted, whatever the model takes.
          promptCapabilities: { image: false, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
        },
        authMethods: authMethods(keys),
        agentInfo: { name: 'mewcode', title: 'MewCode', version: build.version },
      };
    })
    .onRequest(acp.methods.agent.authenticate, ({ params }) => authenticate(params.methodId, keys, setup.context.env))
    .onRequest(acp.methods.agent.session.new, ({ params, client }) => tracked(newSession(params, client)))
    .onRequest(acp.methods.agent.session.load, ({ params, client }) => tracked(oneLoadAtATime(params.sessionId, () => loadSession(params, client))))
    // `$/cancel_request` for a prompt (the handler's signal) cancels its turn as session/cancel does.
    .onRequest(acp.methods.agent.session.prompt, ({ params, signal }) => session(params.sessionId).prompt(params.prompt, signal))
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => sessions.get(params.sessionId)?.cancel())
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      session(params.sessionId).setMode(params.modeId);
      return {};
    });

  async function newSession(params: acp.NewSessionRequest, client: acp.AgentContext): Promise<acp.NewSessionResponse> {
    const opened = await openAcpSession(setup.context, setup.base, { cwd: params.cwd, mcpServers: params.mcpServers ?? [] }, connected(client), place());
    // Ids are reserved when minted, so this never happens; were it to, the open session keeps
    // its id and its kernel (never orphaned, still cancelled and shut down with the connection).
    if (sessions.has(opened.sessionId)) {
      await opened.shutdown();
      throw acp.RequestError.internalError({ sessionId: opened.sessionId }, `a new session drew the id of an open one (${opened.sessionId}); send session/new again`);
    }
    await keep(opened);
    afterResponse(opened);
    return { sessionId: opened.sessionId, modes: opened.modes() };
  }

  async function loadSession(params: acp.LoadSessionRequest, client: acp.AgentContext): Promise<acp.LoadSessionResponse> {
    const request = { cwd: params.cwd, mcpServers: params.mcpServers ?? [], resumeId: params.sessionId };
    const open = () => openAcpSession(setup.context, setup.base, request, connected(client), place());
    let opened: AcpSession;
    try {
      opened = await open();
    } catch (error) {
      throw error instanceof SessionOpenHere ? acp.RequestError.internalError({ sessionId: params.sessionId }, error.message) : error;
    }
    // One kernel per saved session: an editor re-opening a thread this agent has open gets a
    // fresh kernel. The kernel just opened found the transcript held by the open one (it would
    // run unsaved), so it goes, the open one is shut down (its turn ended, its lock released),
    // and the session opens again, saving. Only a load known to succeed closes the open one: a
    // load that cannot succeed (another cwd, a bad one) leaves it as it was.
    const current = sessions.get(params.sessionId);
    if (current && current !== opened) {
      await opened.shutdown(); // its held notices (the transcript it could not take) are dropped
      sessions.delete(params.sessionId);
      await current.shutdown();
      opened = await open();
    }
    await keep(opened);
    await opened.replayHistory();
    afterResponse(opened);
    return { modes: opened.modes() };
  }

  return {
    app,
    closeAll: async () => {
      // Sessions still opening are kept or shut down by `keep`; wait for them to settle first.
      closed = true;
      await Promise.allSettled([...opening]);
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(all.map((s) => s.shutdown()));
    },
  };
}
