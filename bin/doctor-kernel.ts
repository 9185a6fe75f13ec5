/**
 * The checks of `mewcode doctor` that need a booted kernel: the provider a run would use and the
 * plugins that load (and what they warn about); the plugins' own checks run on it too. The kernel
 * is booted as bin/main.ts boots it, but no session starts and no model is called.
 *
 * The plugins' start() runs as in a run (Kernel.create starts them), and doctor waits for the
 * required, essential and safety plugins' as a run does before its first request (each bounded by
 * its start timeout): one that fails or hangs is a `fail` line, since every run would stop there
 * with exit 2. The kernel's shutdown then stops what they started (servers, watchers), so nothing
 * is left running.
 *
 * Two differences from a run, both so that doctor changes nothing: workspace trust is bound as a
 * service instead of being announced (announcing it writes a record to the audit log), and when
 * the provider cannot be set up (no key, no model…) the plugins are checked in a second boot
 * with a stand-in provider that never sends anything.
 */
import { ContainerModule } from 'inversify';
import type { ResolvedConfig } from '../types/config.js';
import { definePlugin, type CliOptions, type MewcodePlugin } from '../types/plugin.js';
import type { Provider, ProviderFactory } from '../types/provider.js';
import type { WorkspaceTrust } from '../types/trust.js';
import { TOKENS } from '../types/tokens.js';
import type { DoctorOptions } from './cli-args.js';
import type { CheckLine } from './doctor-report.js';
import { Kernel, MemoryReporter } from '../kernel/index.js';

const TRUST_PLUGIN = 'doctor-workspace-trust';
const STAND_IN = 'doctor-stand-in';
const DOCTOR_PLUGINS = new Set([TRUST_PLUGIN, STAND_IN]);

/** The sandbox plugin's own "no OS sandbox" warning: the sandbox line already says it. */
const SANDBOX_WARNING_PREFIX = 'sandbox-os: no OS sandbox';

export interface KernelCheckInput {
  options: DoctorOptions;
  homeDir: string;
  env: NodeJS.ProcessEnv;
  plugins: readonly MewcodePlugin[];
  config: ResolvedConfig;
  trust: WorkspaceTrust;
  /** Warnings already shown by the config and trust checks. */
  shown: ReadonlySet<string>;
}

function trustPlugin(trust: WorkspaceTrust): MewcodePlugin {
  return definePlugin({
    name: TRUST_PLUGIN,
    bindings: new ContainerModule(({ bind }) => {
      bind(TOKENS.WorkspaceTrust).toConstantValue(trust);
    }),
  });
}

/** A provider protocol no one configures, whose provider refuses to send anything. */
const standInPlugin = definePlugin({
  name: STAND_IN,
  bindings: new ContainerModule(({ bind }) => {
    const factory: ProviderFactory = {
      protocol: STAND_IN,
      apiKeyEnv: 'MEWCODE_DOCTOR_NO_KEY',
      baseUrlEnv: 'MEWCODE_DOCTOR_NO_URL',
      defaultContextWindow: 200_000,
      apiKeyRequired: () => false,
      create: (settings): Provider => ({
        id: settings.name,
        protocol: settings.protocol,
        model: settings.model,
        contextWindow: settings.contextWindow,
        stream() {
          throw new Error('mewcode doctor never calls a model');
        },
      }),
    };
    bind(TOKENS.ProviderFactory).toConstantValue(factory);
  }),
});

/** The configuration with the provider sections replaced by the stand-in. */
function withStandInProvider(config: ResolvedConfig): ResolvedConfig {
  return {
    layers: config.layers,
    warnings: config.warnings,
    ...(config.fileKeys !== undefined ? { fileKeys: config.fileKeys } : {}),
    section: (key) => (key === 'providers' ? [{ name: STAND_IN, protocol: STAND_IN, model: 'none' }] : key === 'provider' ? undefined : config.section(key)),
    locate: (path) => config.locate(path),
  };
}

function cliOptions(options: DoctorOptions): CliOptions {
  const cli: CliOptions = {
    outputFormat: 'text',
    permissionMode: 'default',
    permissionModeGiven: false,
    debugBoot: false,
    cwd: options.cwd,
    allowedTools: [],
    disallowedTools: [],
    trustProject: options.trustProject,
    dangerouslySkipSandbox: false,
  };
  if (options.provider !== undefined) cli.provider = options.provider;
  if (options.model !== undefined) cli.model = options.model;
  if (options.pluginDirs !== undefined) cli.pluginDirs = options.pluginDirs;
  return cli;
}

export interface Boot {
  kernel?: Kernel;
  error?: unknown;
  warnings: string[];
}

/**
 * A kernel for inspecting what a run would use (`mewcode mcp list`): the configured provider
 * replaced by the stand-in, so no key is needed and no model is ever called.
 */
export function bootWithoutProvider(input: KernelCheckInput): Promise<Boot> {
  return boot(input, true);
}

async function boot(input: KernelCheckInput, standIn: boolean): Promise<Boot> {
  const reporter = new MemoryReporter();
  const { options } = input;
  const flags: { provider?: string; model?: string } = {};
  let env = input.env;
  if (standIn) {
    env = { ...env };
    delete env.MEWCODE_PROVIDER;
  } else {
    if (options.provider !== undefined) flags.provider = options.provider;
    if (options.model !== undefined) flags.model = options.model;
  }
  try {
    const kernel = await Kernel.create({
      plugins: standIn ? [trustPlugin(input.trust), standInPlugin, ...input.plugins] : [trustPlugin(input.trust), ...input.plugins],
      config: standIn ? withStandInProvider(input.config) : input.config,
      projectRoot: options.cwd,
      homeDir: input.homeDir,
      env,
      flags,
      reporter,
      cli: cliOptions(options),
    });
    return { kernel, warnings: [...reporter.warnings] };
  } catch (error) {
    return { error, warnings: [...reporter.warnings] };
  }
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function providerLines(kernel: Kernel, env: NodeJS.ProcessEnv): CheckLine[] {
  const active = kernel.providers.active();
  const configured = kernel.providers.configured();
  const settings = configured.find((s) => s.name === active.id);
  const factory = kernel.container.getAll(TOKENS.ProviderFactory).find((f) => f.protocol === active.protocol);
  const keyEnv = factory?.apiKeyEnv;
  const envSet = keyEnv !== undefined && !!env[keyEnv];
  let key: string;
  if (settings?.apiKey) {
    key = envSet && env[keyEnv!] === settings.apiKey ? `API key from ${keyEnv} (set)` : `API key from the providers entry's api_key${keyEnv ? ` (${keyEnv} is ${envSet ? 'set but not used' : 'not set'})` : ''}`;
  } else {
    key = `no API key (not needed for ${settings?.baseUrl ? origin(settings.baseUrl) : 'this endpoint'})`;
  }
  const endpoint = settings?.baseUrl ? `, base URL ${origin(settings.baseUrl)}` : '';
  const others = configured.filter((s) => s.name !== active.id).map((s) => s.name);
  const also = others.length > 0 ? `; also configured: ${others.join(', ')}` : '';
  return [{ status: 'ok', check: 'provider', message: `${active.id} (${active.protocol}), model ${active.model}${endpoint}; ${key}${also}` }];
}

/** The URL the active provider's requests go to (its base URL, else its protocol's default), when known. */
function modelEndpoint(kernel: Kernel): string | undefined {
  const active = kernel.providers.active();
  const settings = kernel.providers.configured().find((s) => s.name === active.id);
  const factory = kernel.container.getAll(TOKENS.ProviderFactory).find((f) => f.protocol === active.protocol);
  return settings?.baseUrl ?? factory?.defaultBaseUrl;
}

/** Scheme, host and port only: credentials or tokens in a URL are never printed. */
function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(an unparseable URL)';
  }
}

/** A boot warning about the `provider:` / `providers:` settings (`providers.work.api_key`, `providers[1]`…). */
const PROVIDER_WARNING = /\bproviders?(?:[.:[\s]|$)/;

/** Boot warnings not shown by an earlier check, for the provider line or the plugins line. */
function bootWarnings(warnings: readonly string[], shown: ReadonlySet<string>): { provider: CheckLine[]; plugins: CheckLine[] } {
  const fresh = warnings.filter((w) => !shown.has(w) && !w.startsWith(SANDBOX_WARNING_PREFIX));
  return {
    provider: fresh.filter((w) => PROVIDER_WARNING.test(w)).map((w) => ({ status: 'warn', check: 'provider', message: w, hint: 'fix the setting named' })),
    plugins: fresh.filter((w) => !PROVIDER_WARNING.test(w)).map((w) => ({ status: 'warn', check: 'plugins', message: w, hint: 'see the plugin or setting named' })),
  };
}

async function pluginLines(kernel: Kernel, warnings: readonly CheckLine[], standIn: boolean): Promise<CheckLine[]> {
  const names = kernel.plugins.map((p) => p.name).filter((name) => !DOCTOR_PLUGINS.has(name));
  const note = standIn ? ' (checked with a stand-in provider, see provider)' : '';
  return [{ status: 'ok', check: 'plugins', message: `${names.length} loaded${note}: ${names.join(', ')}` }, ...(await startLines(kernel)), ...warnings];
}

/**
 * A run waits for the required, essential and safety plugins' start() before its first request
 * and stops with exit 2 when one fails or hangs (bin/open-run.ts): doctor waits the same way, so
 * a policy that loads but cannot start is not reported as working.
 */
async function startLines(kernel: Kernel): Promise<CheckLine[]> {
  try {
    await kernel.criticalPluginsReady();
    return [];
  } catch (error) {
    return [{ status: 'fail', check: 'plugins', message: `MewCode does not start: ${message(error)}`, hint: 'fix the plugin or what its start() needs; a run exits 2 until then' }];
  }
}

/** A build without a CommandSandbox: bash runs without an OS sandbox (no plugin's check would say so). */
export function noSandboxPluginLines(): CheckLine[] {
  return [{ status: 'warn', check: 'sandbox', message: 'this build has no OS sandbox plugin: bash would run unsandboxed (it asks for approval in default mode, and bypassPermissions needs --dangerously-skip-sandbox)', hint: 'use a build with the sandbox-os plugin' }];
}

export interface KernelChecks {
  provider: CheckLine[];
  plugins: CheckLine[];
  /** What `onKernel` found. */
  more: CheckLine[];
  /** Where model requests go, when a provider was set up (for the proxy check). */
  endpoint?: string;
}

const withEndpoint = (endpoint: string | undefined): { endpoint?: string } => (endpoint === undefined ? {} : { endpoint });

/** `onKernel`: the checks that look at the booted kernel (undefined when none booted), run before it shuts down. */
export async function kernelChecks(input: KernelCheckInput, onKernel: (kernel: Kernel | undefined) => Promise<CheckLine[]>): Promise<KernelChecks> {
  const real = await boot(input, false);
  if (real.kernel) {
    const kernel = real.kernel;
    try {
      const warnings = bootWarnings(real.warnings, input.shown);
      return {
        provider: [...providerLines(kernel, input.env), ...warnings.provider],
        plugins: await pluginLines(kernel, warnings.plugins, false),
        more: await onKernel(kernel),
        ...withEndpoint(modelEndpoint(kernel)),
      };
    } finally {
      await kernel.shutdown();
    }
  }
  const standIn = await boot(input, true);
  if (standIn.kernel) {
    const kernel = standIn.kernel;
    try {
      // Warnings only the real boot gave are about the provider sections the stand-in replaced.
      const onlyReal = bootWarnings(real.warnings.filter((w) => !standIn.warnings.includes(w)), input.shown);
      const warnings = bootWarnings(standIn.warnings, input.shown);
      return {
        provider: [
          { status: 'fail', check: 'provider', message: message(real.error), hint: 'a run stops with exit 2 until this is fixed (mewcode --help lists the environment variables)' },
          ...onlyReal.provider,
          ...onlyReal.plugins.map((line) => ({ ...line, check: 'provider' })),
          ...warnings.provider,
        ],
        plugins: await pluginLines(kernel, warnings.plugins, true),
        more: await onKernel(kernel),
      };
    } finally {
      await kernel.shutdown();
    }
  }
  const warnings = bootWarnings(standIn.warnings, input.shown);
  return {
    provider: [{ status: 'warn', check: 'provider', message: 'not checked: MewCode stops before it chooses a provider (see plugins)', hint: 'fix the plugins failure first' }, ...warnings.provider],
    plugins: [{ status: 'fail', check: 'plugins', message: `MewCode does not start: ${message(standIn.error)}`, hint: 'fix the plugin or setting named; a run exits 2 until then' }, ...warnings.plugins],
    more: await onKernel(undefined),
  };
}
