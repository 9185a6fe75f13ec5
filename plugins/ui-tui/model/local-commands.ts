/**
 * The terminal UI's own slash commands: the ones that need the screen (pickers) or the UI's
 * state (mode). Contributed `Command`s (/help, /compact, /mcp, /skills, …) run beside them.
 */
import type { Message, TextBlock } from '../../../types/messages.js';
import type { PermissionMode } from '../../../types/permissions.js';
import { PERMISSION_MODES } from '../../../types/permissions.js';
import { sessionDamageNote } from '../../../types/session-damage.js';
import type { KernelApi } from '../../../types/plugin.js';
import { TOKENS } from '../../../types/tokens.js';
import type { UiStore } from './ui-store.js';
import { bypassRefusal } from './bypass-refusal.js';

/** What the local commands use of the UI (the controller is one); named here so they do not import it. */
export interface CommandHost {
  readonly kernel: KernelApi;
  readonly store: UiStore;
  readonly mode: PermissionMode;
  setMode(mode: PermissionMode): void;
  refreshStatus(): void;
  hasSessionStore(): boolean;
  exit: (code: number) => void;
}

export interface LocalCommand {
  name: string;
  description: string;
  argumentHint?: string;
  /** Stands in only while no plugin contributes a command of this name. */
  fallback?: boolean;
  /** Output for the scrollback, or undefined when the command showed nothing worth keeping. */
  run(args: string): Promise<{ output: string; isError?: boolean } | undefined>;
}

/** Messages of a resumed session shown again in the scrollback (the most recent ones). */
export const RESUME_REPLAY_MESSAGES = 20;

export function localCommands(ui: CommandHost): LocalCommand[] {
  const { kernel, store } = ui;
  return [
    {
      name: 'clear',
      description: 'Start a new conversation (the current one stays saved)',
      async run() {
        const fresh = kernel.createSession().sessionId;
        await kernel.resumeSession({ sessionId: fresh, messages: [], agentId: 'main' });
        store.setStatus({ contextTokens: 0, sessionTokens: 0 });
        return { output: `New conversation ${fresh}.` };
      },
    },
    {
      name: 'mode',
      description: 'Show or set the permission mode',
      argumentHint: '[default|acceptEdits|plan|bypassPermissions]',
      async run(args) {
        let wanted = args.trim();
        if (!wanted) {
          const offered = PERMISSION_MODES.filter((m) => m !== 'bypassPermissions' || bypassRefusal(kernel) === undefined);
          wanted = (await store.pick({ title: 'Permission mode', items: offered.map((m) => ({ label: m, value: m, ...(m === ui.mode ? { detail: 'current' } : {}) })) })) ?? '';
          if (!wanted) return undefined;
        }
        if (!PERMISSION_MODES.includes(wanted as PermissionMode)) return { isError: true, output: `Unknown mode ${wanted}; one of ${PERMISSION_MODES.join(', ')}.` };
        const refused = wanted === 'bypassPermissions' ? bypassRefusal(kernel) : undefined;
        if (refused !== undefined) return { isError: true, output: `${refused}; the mode stays ${ui.mode}.` };
        ui.setMode(wanted as PermissionMode);
        return { output: `Mode: ${wanted}.` };
      },
    },
    {
      name: 'model',
      description: 'Switch the provider or model of this session',
      argumentHint: '[provider | model]',
      async run(args) {
        const registry = kernel.container.get(TOKENS.ProviderRegistry);
        const choices = registry.models();
        let wanted = args.trim();
        if (!wanted) {
          const current = kernel.session.currentProvider();
          wanted =
            (await store.pick({
              title: 'Model',
              items: choices.map((c) => ({ label: `${c.provider}  ${c.model}`, value: c.provider, detail: `${c.protocol}, ${Math.round(c.contextWindow / 1000)}k window${c.provider === current.id ? ', current' : ''}` })),
            })) ?? '';
          if (!wanted) return undefined;
        }
        // A configured provider name switches provider; anything else is a model of the current one.
        const selection = choices.some((c) => c.provider === wanted) ? { provider: wanted } : { model: wanted };
        const provider = kernel.session.switchModel(selection);
        ui.refreshStatus();
        return { output: `Model: ${provider.id} ${provider.model}.` };
      },
    },
    {
      name: 'resume',
      description: 'Resume a saved session of this project (picker with search)',
      argumentHint: '[id]',
      async run(args) {
        if (!ui.hasSessionStore()) return { isError: true, output: 'This build has no session plugin: there are no saved sessions.' };
        const sessions = kernel.container.get(TOKENS.SessionStore);
        let id = args.trim();
        if (!id) {
          const list = (await sessions.list()).filter((s) => s.id !== kernel.session.sessionId);
          if (list.length === 0) return { output: 'No other saved session in this project.' };
          id = (await store.pick({ title: 'Resume a session', items: list.map((s) => ({ label: s.title || '(no prompt)', value: s.id, detail: `${s.id} · ${s.messages} msg · ${s.updated.slice(0, 16).replace('T', ' ')}` })) })) ?? '';
          if (!id) return undefined;
        }
        const loaded = await sessions.load(id);
        await kernel.resumeSession(loaded);
        replay(ui, loaded.messages);
        ui.refreshStatus();
        const damage = sessionDamageNote(loaded);
        const skipped = damage === undefined ? '' : ` (${damage})`;
        return { output: `Resumed session ${id}: ${loaded.messages.length} messages${skipped}.` };
      },
    },
    {
      name: 'permissions',
      description: 'List granted approvals and revoke one',
      async run() {
        if (!kernel.container.isBound(TOKENS.Approvals)) return { isError: true, output: 'This build has no permission rules plugin.' };
        const approvals = kernel.container.get(TOKENS.Approvals);
        const grants = approvals.list();
        if (grants.length === 0) return { output: 'No approvals granted (allow for this session / allow always add them).' };
        const picked = await store.pick({
          title: 'Granted approvals (Enter revokes, Esc keeps all)',
          items: grants.map((g, i) => ({ label: g.rule, value: String(i), detail: `${g.scope === 'local' ? 'always' : 'this session'} · ${g.source}` })),
        });
        const listing = grants.map((g) => `  ${g.rule}  (${g.scope === 'local' ? 'always' : 'session'}, ${g.source})`).join('\n');
        if (picked === undefined) return { output: `Granted approvals:\n${listing}` };
        const grant = grants[Number(picked)]!;
        const removed = await approvals.revoke(grant.rule, grant.scope);
        return { output: removed ? `Revoked ${grant.rule}.` : `${grant.rule} was not found any more.`, isError: !removed };
      },
    },
    {
      name: 'mcp',
      description: 'The MCP servers: state, tools, errors',
      fallback: true,
      async run() {
        if (!kernel.container.isBound(TOKENS.McpServers)) return { output: 'This build has no MCP plugin.' };
        const servers = kernel.container.get(TOKENS.McpServers).status();
        if (servers.length === 0) return { output: 'No MCP servers are configured (mcp_servers: in .mewcode.yaml, or .mcp.json).' };
        const lines = servers.map((s) => {
          const tools = s.state === 'connected' ? `, ${s.toolCount} tool${s.toolCount === 1 ? '' : 's'}` : '';
          const why = s.lastError ? ` — ${s.lastError}` : '';
          return `  ${s.name}  ${s.state} (${s.transport}${tools})${why}\n    ${s.source}${s.logPath ? `, log ${s.logPath}` : ''}`;
        });
        return { output: ['MCP servers:', ...lines].join('\n') };
      },
    },
    {
      name: 'exit',
      description: 'Leave MewCode',
      async run() {
        ui.exit(0);
        return undefined;
      },
    },
  ];
}

/** The resumed conversation's recent prompts and answers, back in the scrollback (/resume, --continue). */
export function replay(ui: Pick<CommandHost, 'store'>, messages: readonly Message[]): void {
  const recent = messages.slice(-RESUME_REPLAY_MESSAGES);
  if (recent.length < messages.length) ui.store.notice('notice', `… ${messages.length - recent.length} earlier messages`);
  for (const m of recent) {
    if (m.role === 'user') {
      const text = textOf(m.content);
      if (text.trim()) ui.store.add({ kind: 'user', text });
    } else if (m.role === 'assistant') {
      const text = textOf(m.content);
      if (text.trim()) ui.store.add({ kind: 'assistant', text });
      for (const call of m.toolCalls) ui.store.notice('notice', `⏺ ${call.name} (earlier)`);
    }
  }
}

function textOf(blocks: readonly { type: string }[]): string {
  return blocks.flatMap((b) => (b.type === 'text' ? [(b as TextBlock).text] : [])).join('\n');
}
