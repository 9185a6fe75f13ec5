/**
 * What any plugin can reach from the container must not lead to another plugin's KernelApi (or
 * the kernel's hooks): taps made through a plugin's facade count as that plugin's, so a configured
 * plugin holding the build's `subagents` facade would tap postToolUse after the organisation's
 * redaction and put the raw text back. The default set is booted, every bound service of TOKENS is
 * resolved as a plugin resolves it, and everything reachable through own properties (a few levels
 * deep) is checked. So are the providers on the way: one whose `stream` a plugin could call would
 * send a request preModelRequest (the organisation's DLP) never saw. The walk runs again once the
 * plugins have started, a turn ran and an MCP server connected (a service may fill its fields only
 * then): no reachable `execute` may be a real tool's, no reachable object may be one a plugin can
 * change for the others, and no service may offer more than its contract.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { types } from 'node:util';
import { stringify } from 'yaml';
import { loadConfig } from '../../config/load.js';
import { Kernel } from '../../kernel/kernel.js';
import { PluginContext } from '../../kernel/plugin-context.js';
import { MemoryReporter } from '../../kernel/reporter.js';
import { createDefaultPlugins } from '../../plugins/default-set.js';
import { LIMITS } from '../../plugins/output-limits/limits.js';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import type { ModelRequest, Provider, ProviderFactory, ProviderSettings } from '../../types/provider.js';
import type { McpServers } from '../../types/mcp.js';
import { TOKENS } from '../../types/tokens.js';
import { collect } from '../support/boot.js';
import { memoryEnv, memoryModel, say } from '../support/memory-provider.js';

let base: string;
let kernel: Kernel | undefined;

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-container-reach-')));
  for (const dir of ['project', 'home']) mkdirSync(path.join(base, dir));
});
afterEach(async () => {
  await kernel?.shutdown();
  kernel = undefined;
  rmSync(base, { recursive: true, force: true });
});

const MAX_DEPTH = 6;

/** Where a walk found something that taps hooks, and whose hooks they are. */
interface Finding {
  path: string;
  what: string;
}

/** A raw tapable hook: the kernel's own, never handed out. */
function isRawHook(value: object): boolean {
  try {
    const hook = value as { taps?: unknown; tap?: unknown; call?: unknown; promise?: unknown };
    return Array.isArray(hook.taps) && typeof hook.tap === 'function' && (typeof hook.call === 'function' || typeof hook.promise === 'function');
  } catch {
    return false; // a closed facade refuses to be read: no hook of its own
  }
}

/**
 * Whether `hooks` lets whoever holds them tap: a probe tap under a name of nobody's. The
 * container's Kernel view refuses every tap; a plugin's facade refuses the probe's name (which
 * gives away that it is that plugin's); the host's accepts it.
 */
function tapsAs(hooks: unknown): string | undefined {
  let postToolUse: { tapPromise?: unknown } | undefined;
  try {
    postToolUse = (hooks as { postToolUse?: { tapPromise?: unknown } } | null | undefined)?.postToolUse;
  } catch {
    return undefined;
  }
  if (typeof postToolUse?.tapPromise !== 'function') return undefined;
  try {
    (postToolUse.tapPromise as (options: object, fn: (r: unknown) => unknown) => void)({ name: 'container-reach-probe', stage: 0 }, (r) => r);
    return 'hooks that accept a tap under any name';
  } catch (error) {
    const message = (error as Error).message;
    if (message.includes('from the container cannot tap hooks')) return undefined;
    return `hooks that tap: ${message.slice(0, 120)}`;
  }
}

/** Whether calling `stream` (as a plugin would) is refused at once; nothing is sent either way until it is iterated. */
function streams(provider: { stream: (request: ModelRequest, signal: AbortSignal) => unknown }): boolean {
  try {
    provider.stream({ system: { stable: '', environment: '' }, messages: [], tools: [] }, new AbortController().signal);
    return true;
  } catch (error) {
    return !/a provider cannot be called directly/.test((error as Error).message);
  }
}

/** A provider, or a factory whose `create` makes one from the configured settings, that streams for whoever holds it. */
function liveProvider(value: object, settings: ProviderSettings): string | undefined {
  try {
    const candidate = value as { stream?: unknown; model?: unknown; create?: unknown; protocol?: unknown; apiKeyEnv?: unknown };
    if (typeof candidate.stream === 'function' && typeof candidate.model === 'string') {
      return streams(candidate as Provider) ? 'a provider whose stream a plugin can call' : undefined;
    }
    if (typeof candidate.create === 'function' && typeof candidate.protocol === 'string' && typeof candidate.apiKeyEnv === 'string' && candidate.protocol === settings.protocol) {
      return streams((candidate as ProviderFactory).create(settings)) ? 'a provider factory that makes providers a plugin can stream from' : undefined;
    }
  } catch {
    // a closed facade refuses to be read
  }
  return undefined;
}

function scan(roots: readonly [string, unknown][], own: KernelApi, settings: ProviderSettings): Finding[] {
  const seen = new Set<unknown>();
  const found: Finding[] = [];
  const walk = (value: unknown, at: string, depth: number): void => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value) || depth > MAX_DEPTH) return;
    seen.add(value);
    if (value === own) return;
    const live = liveProvider(value, settings);
    if (live !== undefined) found.push({ path: at, what: live });
    if (value instanceof PluginContext) {
      const taps = tapsAs(value.hooks);
      if (taps !== undefined) found.push({ path: at, what: `a plugin's KernelApi facade with ${taps}` });
    } else if (isRawHook(value)) {
      found.push({ path: at, what: 'a raw kernel hook' });
    } else {
      let hooks: unknown;
      try {
        hooks = (value as { hooks?: unknown }).hooks;
      } catch {
        hooks = undefined;
      }
      const taps = tapsAs(hooks);
      if (taps !== undefined) found.push({ path: at, what: taps });
    }
    let keys: PropertyKey[] = [];
    try {
      keys = Reflect.ownKeys(value);
    } catch {
      return;
    }
    for (const key of keys) {
      let next: unknown;
      try {
        next = Reflect.get(value, key);
      } catch {
        continue;
      }
      walk(next, `${at}.${String(key)}`, depth + 1);
    }
    if (value instanceof Map) for (const [key, entry] of value) walk(entry, `${at}<${String(key)}>`, depth + 1);
    if (value instanceof Set) for (const entry of value) walk(entry, `${at}<item>`, depth + 1);
  };
  for (const [at, value] of roots) walk(value, at, 0);
  return found;
}

/**
 * The plugins' own tokens: a `Symbol.for` key is the same symbol for every plugin that spells it,
 * so the services bound under one are as reachable as those under TOKENS.
 */
function pluginTokens(): [string, symbol][] {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'plugins');
  const keys = new Set<string>();
  for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') && !file.endsWith('.tsx')) continue;
    for (const match of readFileSync(path.join(root, file), 'utf8').matchAll(/Symbol\.for\((['"])(mewcode[^'"]+)\1\)/g)) keys.add(match[2]!);
  }
  return [...keys].map((key) => [key, Symbol.for(key)]);
}

/** Every bound service of TOKENS and the plugins' own tokens, resolved as any plugin resolves it (all bindings of a multi-bound token). */
function services(kernel: KernelApi): [string, unknown][] {
  const roots: [string, unknown][] = [];
  const tokens = [...(Object.entries(TOKENS) as [string, symbol][]).map(([name, token]): [string, symbol] => [`TOKENS.${name}`, token]), ...pluginTokens()];
  for (const [name, token] of tokens) {
    if (!kernel.container.isBound(token)) continue;
    kernel.container.getAll<unknown>(token).forEach((service, index) => roots.push([`${name}[${index}]`, service]));
  }
  return roots;
}

test("no service in the default set's container leads to a plugin's KernelApi, the kernel's hooks or a provider that streams", async () => {
  let view: KernelApi | undefined;
  const looker = definePlugin({
    name: 'looker',
    apply(kernel) {
      view = kernel;
    },
  });
  const model = memoryModel([]);
  kernel = await Kernel.create({
    plugins: [...createDefaultPlugins({ env: memoryEnv }), model.plugin, looker],
    projectRoot: path.join(base, 'project'),
    homeDir: path.join(base, 'home'),
    env: memoryEnv,
    reporter: new MemoryReporter(),
  });
  const own = view!;
  const roots: [string, unknown][] = [
    ...services(own),
    ['kernel.session', own.session],
    ['kernel.session.currentProvider()', own.session.currentProvider()],
    ['ProviderRegistry.active()', own.container.get(TOKENS.ProviderRegistry).active()],
    ['kernel.tools', own.tools],
    ...own.tools.list().map((tool): [string, unknown] => [`tool:${tool.name}`, tool]),
    ...own.commands().map((command): [string, unknown] => [`command:${command.name}`, command]),
  ];
  // The walk reached the sub-agent runner (which holds its plugin's facade) and the commands.
  expect(roots.some(([at]) => at.startsWith('TOKENS.SubagentRunner'))).toBe(true);
  expect(roots.some(([at]) => at.startsWith('mewcode/subagents/service'))).toBe(true);
  const [settings] = own.container.get(TOKENS.ProviderRegistry).configured();
  expect(scan(roots, own, settings!)).toEqual([]);
  expect(model.requests).toEqual([]);
});

/** What a walk from the container's services found that a plugin could run or change for every other plugin. */
function contractFindings(roots: readonly [string, unknown][], facades: ReadonlySet<unknown>): Finding[] {
  const seen = new Set<unknown>();
  const found: Finding[] = [];
  const read = (value: object, key: PropertyKey): { ok: boolean; next?: unknown; copy?: boolean } => {
    try {
      const next = Reflect.get(value, key);
      // A getter that hands out a fresh copy at every read (sealedService's data) changes nothing shared.
      const copy = typeof next === 'object' && next !== null && Reflect.get(value, key) !== next;
      return { ok: true, next, copy };
    } catch {
      return { ok: false };
    }
  };
  const walk = (value: unknown, at: string, depth: number, shared: boolean): void => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value) || depth > MAX_DEPTH) return;
    seen.add(value);
    if (facades.has(value)) return; // a registered tool's sealed facade: its execute refuses
    if (typeof value === 'function') {
      if (/^(bound )?execute$/.test(value.name)) found.push({ path: at, what: 'a function named execute that is no sealed tool facade\'s' });
    } else {
      let execute: unknown;
      try {
        execute = (value as { execute?: unknown }).execute;
      } catch {
        execute = undefined;
      }
      if (typeof execute === 'function') found.push({ path: at, what: 'an object with an execute function that is no sealed tool facade' });
      if (shared && (acceptsWrites(value) || value instanceof Map || value instanceof Set || value instanceof WeakMap || value instanceof WeakSet)) {
        found.push({ path: at, what: `a mutable ${kindOf(value)} every plugin that resolves the service shares` });
        shared = false; // one finding per path: what lies beneath is as open
      }
    }
    let keys: PropertyKey[] = [];
    try {
      keys = Reflect.ownKeys(value);
    } catch {
      return;
    }
    for (const key of keys) {
      if (typeof value === 'function' && key === 'prototype') continue;
      const { ok, next, copy } = read(value, key);
      if (ok) walk(next, `${at}.${String(key)}`, depth + 1, shared && !copy);
    }
    if (value instanceof Map) for (const [key, entry] of value) walk(entry, `${at}<${String(key)}>`, depth + 1, shared);
    if (value instanceof Set) for (const entry of value) walk(entry, `${at}<item>`, depth + 1, shared);
  };
  for (const [at, value] of roots) walk(value, at, 0, true);
  return found;
}

/** Whether a plugin could set or add a property: not frozen; a proxy (which may refuse in its traps) is asked. */
function acceptsWrites(value: object): boolean {
  if (!types.isProxy(value)) return !Object.isFrozen(value);
  const probe = Symbol('container-reach-probe');
  try {
    return Reflect.set(value, probe, 1) || Reflect.defineProperty(value, probe, { value: 1 });
  } catch {
    return false; // refused
  }
}

function kindOf(value: object): string {
  try {
    return (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name ?? 'object';
  } catch {
    return 'object';
  }
}

/**
 * What each service plugins bind under TOKENS offers (types/): its contract, and nothing of the
 * object behind it (the MCP manager's closeAll, the session store's removeExpired, the to-do
 * store's write, the Claude plugin loader's load, the UI output's attach).
 */
const CONTRACTS: Readonly<Record<string, readonly string[]>> = {
  OutputLimits: [...Object.keys(LIMITS), 'spillDir', 'spillPath', 'openSpillFile', 'cutLine', 'cutBytes'],
  McpServers: ['status', 'settled'],
  SessionStore: ['list', 'latest', 'load'],
  TodoLists: ['current', 'onChange'],
  InstructionLoads: ['onLoad'],
  CompactionService: ['estimateTokens', 'shouldCompact', 'compact'],
  ClaudePluginBundles: ['list'],
  ClaudePluginRoots: ['name', 'roots'],
  CommandProvider: ['commands'],
  ReadOnlyDirectories: ['directories'],
  UserInterface: ['name', 'handles', 'output', 'run', 'decideTrust', 'endReason'],
};

/** Members a service offers beyond its contract (`TOKENS.<name>[i].<member>`), the UI's output included. */
function beyondContracts(kernel: KernelApi): string[] {
  const extra: string[] = [];
  for (const [name, contract] of Object.entries(CONTRACTS)) {
    const token = (TOKENS as Record<string, symbol>)[name]!;
    if (!kernel.container.isBound(token)) continue;
    kernel.container.getAll<Record<string, unknown>>(token).forEach((service, index) => {
      for (const key of Reflect.ownKeys(service)) if (!contract.includes(String(key))) extra.push(`TOKENS.${name}[${index}].${String(key)}`);
      if (name !== 'UserInterface') return;
      for (const key of Reflect.ownKeys(service.output as object)) if (!['notify', 'approve'].includes(String(key))) extra.push(`TOKENS.${name}[${index}].output.${String(key)}`);
    });
  }
  return extra;
}

/** A dependency-free MCP server with one tool (`touch`), as the user's own configuration names it. */
const MINIMAL_MCP_SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'plugins', 'mcp', 'fixtures', 'minimal-server.mjs');

test('after the plugins started and a turn ran, every service is its contract only: no real tool to execute, nothing shared to change', async () => {
  const home = path.join(base, 'home');
  const project = path.join(base, 'project');
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(path.join(home, '.mewcode', 'config.yaml'), stringify({ mcp: { startup_wait_ms: 20_000 }, mcp_servers: { mine: { type: 'stdio', command: process.execPath, args: [MINIMAL_MCP_SERVER] } } }));
  let view: KernelApi | undefined;
  const looker = definePlugin({
    name: 'looker',
    apply(kernel) {
      view = kernel;
    },
  });
  const model = memoryModel([say('done')]);
  kernel = await Kernel.create({
    plugins: [...createDefaultPlugins({ env: { ...memoryEnv, PATH: process.env.PATH } }), model.plugin, looker],
    projectRoot: project,
    homeDir: home,
    env: { ...memoryEnv, PATH: process.env.PATH },
    config: await loadConfig({ cwd: project, homeDir: home }),
    reporter: new MemoryReporter(),
  });
  const own = view!;
  await kernel.pluginsReady();
  await own.container.get<McpServers>(TOKENS.McpServers).settled();
  await collect(kernel.run({ prompt: 'hello', mode: 'default' }));
  // The MCP server's tool is registered: the walk runs where its real object lives.
  expect(own.container.get<McpServers>(TOKENS.McpServers).status().map((server) => [server.name, server.state, server.toolCount])).toEqual([['mine', 'connected', 1]]);
  expect(own.tools.get('mcp__mine__touch')).toBeDefined();
  const facades = new Set<unknown>(own.tools.list());
  const roots = services(own);
  expect(contractFindings(roots, facades)).toEqual([]);
  expect(beyondContracts(own)).toEqual([]);
  // A `Symbol.for` key is a name every plugin can make: the build's plugins bind their internals
  // (the permission rules' grants, the MCP manager, the stores) under symbols of their own modules.
  // The one left is the sub-agents' opaque key, which only that plugin can turn into its service.
  expect(pluginTokens().map(([key]) => key)).toEqual(['mewcode/subagents/service']);
  const [settings] = own.container.get(TOKENS.ProviderRegistry).configured();
  expect(scan([...services(own), ['kernel.session', own.session], ['kernel.tools', own.tools]], own, settings!)).toEqual([]);
}, 30_000);
