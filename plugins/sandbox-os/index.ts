/**
 * The sandbox-os plugin: binds TOKENS.CommandSandbox, the OS sandbox commands run in
 * (bash now; MCP stdio servers and hook commands later).
 *
 * Linux: bubblewrap, driven directly (the distribution package `bubblewrap`; `.ci/run` installs
 * it). macOS: `sandbox-exec` with a generated Seatbelt profile (untested on the Linux machines
 * this is developed on).
 *
 * Why not @anthropic-ai/sandbox-runtime (what Claude Code uses), evaluated 2026-12-01 at 0.0.83:
 * - it requires Node ≥ 22.12 (`engines`), MewCode supports Node 20;
 * - on Linux it needs `socat` besides bwrap, and brings an HTTP + SOCKS5 proxy, node-forge,
 *   commander and zod 3 (MewCode uses zod 4);
 * - it is a process-wide singleton (`SandboxManager.initialize`) with its own config shape,
 *   where MewCode needs a per-call policy built from its own settings (project root, additional
 *   directories, protected paths, the kernel's home directory) and a pure argument builder it
 *   can test;
 * - 0.0.x: no stability promise.
 * Driving bwrap directly is ~150 lines (mount-plan.ts + bwrap-args.ts), adds no dependency, and
 * every mount is visible in one function. Per-domain network (`sandbox.allowed_domains`) is the
 * same design as sandbox-runtime's, without socat: domain-proxy.ts (an HTTP CONNECT proxy on a
 * unix socket, in MewCode) and a node bridge inside the sandbox; Linux only for now.
 *
 * Settings come from the user's files only (settings.ts); a project's `sandbox:` is ignored,
 * loudly. The plugin is essential: a project's `disable:` cannot remove it.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { sealedService } from '../../types/sealed-service.js';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import type { ResolvedConfig } from '../../types/config.js';
import type { SandboxReadRules } from '../../types/sandbox.js';
import type { PermissionSettings, SearchPolicy } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { isPathWithin } from '../../types/path-within.js';
import { OsCommandSandbox } from './service.js';

export { OsCommandSandbox, type OsSandboxOptions } from './service.js';

const NAME = 'sandbox-os';

/** A `sandbox:` key in a project or local config file does nothing: say so, with its place. */
function warnProjectSetting(kernel: KernelApi): void {
  if (!kernel.container.isBound(TOKENS.Config)) return;
  const config = kernel.container.get<ResolvedConfig>(TOKENS.Config);
  const where = config.locate(['sandbox']);
  if (where === undefined) return;
  const userFiles = config.layers.filter((layer) => layer.layer === 'user').map((layer) => layer.file);
  if (userFiles.some((file) => where.startsWith(`${file}:`))) return;
  kernel.warn(
    `sandbox-os: ${where}: sandbox: is ignored outside your own settings (a repository must not switch off or widen its own sandbox); ` +
      'set it in ~/.mewcode/settings.yaml or ~/.mewcode/config.yaml',
  );
}

/**
 * Started in the home directory, `/` or an ancestor of the home: commands may write the whole
 * home, so its dotfiles are protected (read-only in the sandbox, asking in the file tools). Said
 * once, at start.
 */
function warnHomeRoot(kernel: KernelApi): void {
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const root = real(kernel.projectRoot);
  const home = real(kernel.homeDir);
  if (!isPathWithin(root, home)) return;
  kernel.warn(
    `sandbox-os: the project root ${root} ${root === home ? 'is your home directory' : 'holds your home directory'}: commands may write anywhere in it except your dotfiles ` +
      '(every ~/.name: ~/.bashrc, ~/.profile, ~/.gitconfig, ~/.ssh, ~/.config …, and ~/bin), which stay read-only; the file tools ask before changing them. ' +
      'Start MewCode in a project directory to keep the rest of your home out of reach.',
  );
}

/**
 * The rules layer's Read deny/ask rules: the search policy's predicate for the Read tool
 * (`read_file`), and the rules' literal prefixes from PermissionSettings, so read-rules.ts walks
 * only the rules' own directories (without prefixes, e.g. for a regex rule, it walks the writable
 * roots and the home's top level instead).
 */
function readRules(kernel: KernelApi): SandboxReadRules | undefined {
  if (!kernel.container.isBound(TOKENS.SearchPolicy)) return undefined;
  const hidden = kernel.container.get<SearchPolicy>(TOKENS.SearchPolicy).hiddenFiles('read_file');
  if (!hidden) return undefined;
  const settings = kernel.container.isBound(TOKENS.PermissionSettings) ? kernel.container.get<PermissionSettings>(TOKENS.PermissionSettings) : undefined;
  const prefixes = settings?.readRulePrefixes?.();
  return prefixes ? { hidden, prefixes } : { hidden };
}

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  essential: true,
  // The user's `sandbox:` section is read from their own files only (settings.ts), not through `config`.
  configKeys: ['sandbox'],
  doctorChecks: [{ name: 'sandbox', run: async (context) => (await import('./doctor-check.js')).checkSandbox(context) }],
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.CommandSandbox)
      .toDynamicValue((context) => {
        const kernel = context.get<KernelApi>(TOKENS.Kernel);
        const managed = context.get(TOKENS.ManagedPolicy, { optional: true });
        // Sealed: a plugin that resolves the sandbox can use it, not replace its wrap() for bash.
        return sealedService(new OsCommandSandbox({
          ...(managed ? { managed } : {}),
          homeDir: kernel.homeDir,
          projectRoot: kernel.projectRoot,
          warn: (message) => kernel.warn(message),
          // Bound by permission-rules (when the build has it); read at each call, after its files are loaded.
          additionalDirectories: () =>
            kernel.container.isBound(TOKENS.PermissionSettings) ? kernel.container.get<PermissionSettings>(TOKENS.PermissionSettings).additionalDirectories() : [],
          readRules: () => readRules(kernel),
        }));
      })
      .inSingletonScope();
  }),
  // The probe (a bwrap process) otherwise starts PROBE_DELAY_MS after boot or at the first bash
  // call's permission check, which then waits for it between the answer and the next request.
  // The sandbox's command code (loaded here, not at start), the project's git baseline (a walk of
  // the tree) and the session's private directories follow it, so the first command neither loads,
  // walks nor makes them.
  async warm(kernel) {
    await (kernel.container.get(TOKENS.CommandSandbox) as OsCommandSandbox).prepare(kernel.projectRoot);
  },
  async apply(kernel) {
    const sandbox = kernel.container.get(TOKENS.CommandSandbox) as OsCommandSandbox;
    warnProjectSetting(kernel);
    warnHomeRoot(kernel);
    // Probes now, in the background, so a sandbox that cannot run is said once at start (within
    // ≈ 10 ms, long before a model answers) without holding up the first request. Every consumer
    // (the mode layer's probe(), wrap()) awaits the same probe, after the user's settings.
    // start() reads the user's sandbox settings (so status() knows `sandbox: false` at once) and
    // leaves the probe running.
    await sandbox.start();
    // A bash call's permission check waits for the probe (the mode layer asks whether commands are
    // confined). Started as the call arrives, the probe of a process's first call runs beside the
    // checks and imports before that layer instead of after them, and so do the session's private
    // directories and seccomp filter its command needs; later calls find them made.
    kernel.hooks.preToolUse.tap(NAME, (decision, context) => {
      if (context.call.name === 'bash') sandbox.prepareCommand().catch(() => undefined);
      return decision;
    });
    // A call that ended may have written what a later command must not read (a .env): commands
    // share a preparation only among calls that arrive together, none ending between (sandbox-commands.ts).
    kernel.hooks.postToolUse.tap(NAME, (result) => {
      sandbox.callEnded();
      return result;
    });
    // The private /tmp lives as long as the user's session (sub-agents share it).
    kernel.hooks.sessionEnd.tapPromise(NAME, async (session) => {
      if (session.agentId === 'main') await sandbox.dispose();
    });
  },
});
