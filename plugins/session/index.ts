/**
 * Session persistence (C1–C4): every history append of every session is written to
 * `.mewcode/sessions/<id>/` before the append resolves and fsynced in the background at once (a
 * `messageAppended` tap; transcript-writer.ts says why), the
 * saved sessions are offered under TOKENS.SessionStore for `--continue`, `--resume <id>`,
 * `mewcode sessions` and the TUI, and sessions idle for more than 30 days are removed in the
 * background after start-up. A write failure is one warning per file; the run goes on unsaved.
 */
import { ContainerModule, type ServiceIdentifier } from 'inversify';
import { definePlugin, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';
import type { ProviderRegistry } from '../../types/services.js';
import type { SessionIdReservation, SessionStore } from '../../types/session-store.js';
import { releaseSession, reserveSession, type SessionReservation } from '../../sdk/session-files.js';
import { TOKENS } from '../../types/tokens.js';
import { groupDigits } from '../../sdk/plain-intl.js';
import { loadOnce } from '../../sdk/load-once.js';
import type { FileSessionStore } from './session-store.js';
import { TranscriptWriter, type ModelInUse } from './transcript-writer.js';

export const NAME = 'session';
/** The store itself, for this plugin's clean-up only: a symbol of this module's, which no other plugin can name. */
const STORE: ServiceIdentifier<() => Promise<FileSessionStore>> = Symbol('session/store');
/**
 * The reader of saved sessions (list, load, clean-up), imported at its first use: a run that
 * resumes nothing needs it only for the clean-up, after start-up. The writer is loaded at boot.
 */
const loadStore = loadOnce(() => import('./session-store.js'));
/** Clean-up waits until the first turn is well under way: it is never on the start-up path. */
export const CLEANUP_DELAY_MS = 2_000;

export function createSessionPlugin(): MewcodePlugin {
  // One plugin object may serve several kernels in a process (tests, custom builds): state per apply.
  const writers = new Set<TranscriptWriter>();
  const cleanups = new Set<NodeJS.Timeout>();
  /** Session directories reserved for new ids: given back at the end when they stayed empty. */
  const reserved = new Set<SessionReservation>();
  /** Sessions resumed or written by this process: clean-up never removes them. */
  const inUseByKernel = new Map<string, Set<string>>();
  return definePlugin({
    name: NAME,
    version: '0.2.0',
    subcommands: [
      {
        name: 'sessions',
        usage: 'sessions',
        summary: 'list this project\'s saved sessions, newest first: id, age, model, message count, title',
        run: async (context) => (await import('./sessions-subcommand.js')).listSessions(context),
      },
    ],
    bindings: new ContainerModule(({ bind }) => {
      bind(STORE)
        .toDynamicValue((context) => {
          const kernel = context.get<KernelApi>(TOKENS.Kernel);
          return loadOnce(async () => new (await loadStore()).FileSessionStore(kernel.projectRoot, kernel.homeDir));
        })
        .inSingletonScope();
      // The contract only: list, latest and load. Removing sessions is this plugin's clean-up.
      bind(TOKENS.SessionStore)
        .toDynamicValue((context): SessionStore => {
          const store = context.get(STORE);
          return Object.freeze({ list: async () => (await store()).list(), latest: async () => (await store()).latest(), load: async (id: string) => (await store()).load(id) });
        })
        .inSingletonScope();
      // A fresh id's directory is made at once and exclusively: two processes (or two sessions of
      // one) drawing the same id in the same second never write into one transcript.
      bind(TOKENS.SessionIds)
        .toDynamicValue((context): SessionIdReservation => {
          const kernel = context.get<KernelApi>(TOKENS.Kernel);
          return Object.freeze({
            reserve: (id: string) => {
              try {
                const reservation = reserveSession(kernel.projectRoot, id);
                if (reservation) reserved.add(reservation);
                return reservation !== undefined;
              } catch {
                return true; // not saved here anyway (a refused or unwritable folder): the writer says so
              }
            },
          });
        })
        .inSingletonScope();
    }),
    apply(kernel) {
      const inUse = new Set<string>();
      inUseByKernel.set(kernel.projectRoot, inUse);
      const reported = new Set<string>();
      const report = (origin: { sessionId: string; agentId: string }, failure: Error | undefined): void => {
        const key = `${origin.sessionId}/${origin.agentId}`;
        if (!failure || reported.has(key)) return;
        reported.add(key);
        kernel.warn(`${NAME}: this session is not being saved: ${failure.message}`);
      };
      const active = new TranscriptWriter(kernel.projectRoot, kernel.homeDir, { onLateFailure: report });
      writers.add(active);
      const origin = (context: { sessionId: string; agentId: string; parentAgentId?: string }) => ({ sessionId: context.sessionId, agentId: context.agentId, ...(context.parentAgentId ? { parentAgentId: context.parentAgentId } : {}) });
      kernel.hooks.sessionResume.tapPromise(NAME, async (context) => {
        inUse.add(context.sessionId);
        // Taken at once (its lock, a mark in the transcript), so no other process writes it or cleans it up.
        report(context, active.open(origin(context)));
        if (context.agentId !== 'main') return;
        // Resumed on another provider or model (`--continue --provider …`): said as a switch during
        // a run is, and recorded in the transcript.
        const now = sessionModel(kernel, context.sessionId);
        const before = active.lastModel(context.sessionId);
        if (!now || !before || !switched(before, now)) return;
        const from = before.provider ? `${before.model} (provider "${before.provider}")` : before.model;
        kernel.notify('notice', `Model switched to ${now.model} (provider "${now.provider}"${now.contextWindow ? `, context window ${groupDigits(now.contextWindow)} tokens` : ''}) from ${from}, which this session used last; its prompt cache starts over with the next request.`, context);
        report(context, active.recordSwitch(origin(context), before, { provider: now.provider, model: now.model }));
      });
      kernel.hooks.messageAppended.tapPromise(NAME, async (message, context) => {
        inUse.add(context.sessionId);
        const now = context.agentId === 'main' ? sessionModel(kernel, context.sessionId) : undefined;
        if (now) {
          // A switch during a run (/model) is recorded where it takes effect, before the first message it applies to.
          const before = active.lastModel(context.sessionId);
          if (before && switched(before, now)) report(context, active.recordSwitch(origin(context), before, { provider: now.provider, model: now.model }));
        }
        report(context, active.append({ ...origin(context), message, ...(now ? { model: now.model, provider: now.provider } : {}) }));
      });
      // Last, so it records the result as the other taps left it.
      kernel.hooks.postToolUse.tapPromise({ name: NAME, stage: 2000 }, async (result, context) => {
        report(context, active.appendResult(origin(context), result));
        return result;
      });
      // Last, after every other tap of the sub-agent's end (whose writes would reopen the file).
      kernel.hooks.subagentStop.tapPromise({ name: NAME, stage: 2000 }, async (context) => active.closeTranscript(origin(context)));
      kernel.hooks.postCompact.tapPromise(NAME, async (state, context) => {
        if (state.history) report(context, active.appendCompaction(origin(context), state.history, state.report));
      });
    },
    async start(kernel) {
      const store = kernel.container.get(STORE);
      const cleanup = setTimeout(() => {
        cleanups.delete(cleanup);
        store()
          .then((loaded) => loaded.removeExpired(Date.now(), inUseByKernel.get(kernel.projectRoot)))
          .catch((error: unknown) => kernel.warn(`${NAME}: old sessions could not be removed: ${error instanceof Error ? error.message : String(error)}`));
      }, CLEANUP_DELAY_MS);
      cleanup.unref();
      cleanups.add(cleanup);
    },
    startTimeoutMs: 0,
    dispose() {
      for (const cleanup of cleanups) clearTimeout(cleanup);
      cleanups.clear();
      for (const writer of writers) writer.close();
      writers.clear();
      for (const reservation of reserved) releaseSession(reservation);
      reserved.clear();
    },
  });
}

/** The provider and model the main session's requests go to now (it follows `switchModel`), else the registry's active one. */
function sessionModel(kernel: KernelApi, sessionId: string): (ModelInUse & { contextWindow?: number }) | undefined {
  try {
    if (kernel.session.sessionId === sessionId) {
      const provider = kernel.session.currentProvider();
      return { provider: provider.id, model: provider.model, contextWindow: provider.contextWindow };
    }
  } catch {
    // no usable provider: fall back to what the registry says
  }
  if (!kernel.container.isBound(TOKENS.ProviderRegistry)) return undefined;
  try {
    const active = kernel.container.get<ProviderRegistry>(TOKENS.ProviderRegistry).active();
    return { provider: active.id, model: active.model, contextWindow: active.contextWindow };
  } catch {
    return undefined;
  }
}

/** A session saved before providers were recorded compares by model alone. */
function switched(before: Partial<ModelInUse>, now: ModelInUse): boolean {
  return before.model !== now.model || (before.provider !== undefined && before.provider !== now.provider);
}

export default createSessionPlugin();
