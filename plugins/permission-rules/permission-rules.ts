/**
 * The state of the rules layer for one kernel: the four layers, the settings read from the
 * files, session grants and persisted grants, and the services built on them.
 */
import { isPathWithin } from '../../types/path-within.js';
import path from 'node:path';
import { projectBoundary } from '../../config/project-file.js';
import { expandHome } from '../../sdk/path-containment.js';
import type { PermissionMode, PermissionRequest, PermissionVerdict } from '../../types/permissions.js';
import type { SearchPolicy, ToolRegistry } from '../../types/services.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import type { ManagedPolicy } from '../../types/managed.js';
import type { CliOptions } from '../../types/plugin.js';
import { loadMatcherDeps, patternNeeds } from './matchers.js';
import { CompiledRule, RuleLayer, SCOPES, pathBasesFor, type RuleOrigin, type Scope } from './rule-set.js';
import { FRIENDLY_NAMES, parseRule, type RuleList, type ToolSpec } from './rule-syntax.js';
import { RulesEngine, type CommandParser, type EngineContext } from './engine.js';
import type { ApprovalGrant, Approvals, GrantScope, PermissionSettings } from './services.js';
import { PREFIX, approvalsFile, readSettingsFile, settingsFilePaths, type FileScope, type SettingsFile } from './settings-files.js';
import { isClaudeSettingsFile, spellingsWarning } from '../../config/settings-files.js';
import { ignoredClaudeKeysNotice } from './claude-ignored-keys.js';
import { suggestRule } from './suggest.js';
import { paramForm, toolHasParam } from './param-rules.js';
import { fromClaudeToolName, isClaudeOnlyTool } from '../../sdk/claude-tool-names.js';
import { hiddenTools } from './hidden-tools.js';
import { nearestToolHint } from './nearest-tool.js';
import { loadOnce } from '../../sdk/load-once.js';

/**
 * What only a call's check needs (the command decision, protected paths, command reads) and the
 * saving of an "allow always" answer: one on-demand chunk (call-checks.ts), imported at the first
 * check or while the first request waits for the model (the plugin's warm), not at start-up. One
 * import per process, retried after a failure.
 */
export const loadCallChecks = loadOnce(() => import('./call-checks.js'));

/**
 * Whether a call's check reaches the on-demand part: a command (its reads, its writes to protected
 * paths) or a file write (protected paths). For any other call both checks find nothing to judge,
 * so a read, a search or an MCP call does not wait for the import.
 */
function needsCallChecks(request: PermissionRequest): boolean {
  return request.target.kind === 'command' || (request.target.kind === 'path' && request.category === 'write');
}

/** The engine's context for a check: `decideCommand` from the on-demand chunk. */
export function engineContext(homeDir: string, parseCommand: CommandParser): EngineContext {
  return { homeDir, parseCommand, decideCommand: async () => (await loadCallChecks()).decideCommand };
}

export interface RuleInput {
  list: RuleList;
  value: unknown;
  origin: RuleOrigin;
}

export interface RulesContext {
  projectRoot: string;
  homeDir: string;
  parseCommand: CommandParser;
  warn(message: string): void;
  /** Registered tools, to warn about rules naming none (optional). */
  tools?: ToolRegistry;
  /** Whether the OS sandbox will confine this tool's command (absent: never). */
  confined?(toolName: string): Promise<boolean>;
  /** Workspace trust (TOKENS.WorkspaceTrust); absent → the project is untrusted. */
  trust?: WorkspaceTrust;
  /** The organisation's managed settings (TOKENS.ManagedPolicy): their rules are the top layer. */
  managed?: ManagedPolicy;
}

/** A rule whose tool has no path target (bash, MCP tools): its pattern is never a path. */
function commandsOnly(tool: ToolSpec): boolean {
  if (tool.kind === 'server') return true;
  if (tool.kind === 'glob') return tool.source.startsWith('mcp__');
  return tool.name.startsWith('mcp__') || (Object.hasOwn(FRIENDLY_NAMES, tool.name) ? FRIENDLY_NAMES[tool.name] : tool.name) === 'bash';
}

/** No saved answers (a run that does not read the user's settings). */
const NO_APPROVALS: SettingsFile = { scope: 'local', file: '', exists: false, rules: [], defaultMode: undefined, additionalDirectories: [], warnings: [], ignoredClaudeKeys: [] };

export class PermissionRules {
  readonly engine = new RulesEngine(SCOPES.map((scope) => new RuleLayer(scope)));
  /** The managed layer alone (the same RuleLayer object), checked ahead of every plugin's layer (checkManaged). */
  private readonly managedEngine = new RulesEngine([this.engine.layer('managed')]);
  /** Each scope's settings files, in reading order (every spelling: config/settings-files.ts). */
  readonly files: Record<FileScope, string[]>;
  /** The user's "allow always" answers for this project (in ~/.mewcode: the user's own file). */
  readonly approvalsFile: string;
  /** The files of each scope that were read, in reading order. */
  private readonly loaded: Partial<Record<FileScope, SettingsFile[]>> = {};

  constructor(private readonly context: RulesContext) {
    this.files = settingsFilePaths(context.projectRoot, context.homeDir);
    this.approvalsFile = approvalsFile(context.projectRoot, context.homeDir);
  }

  /** Read the settings files, the saved approvals and the command-line rules (at boot). */
  async load(cli: Pick<CliOptions, 'allowedTools' | 'disallowedTools' | 'settingSources' | 'additionalDirectories'> | undefined): Promise<void> {
    this.runDirectories = [...(cli?.additionalDirectories ?? [])].filter((dir) => typeof dir === 'string' && dir !== '');
    this.directories = undefined;
    // A run that names its setting sources (the programmatic API) reads only those files; the
    // user's saved "allow always" answers belong to the user's settings.
    const reads = (scope: FileScope): boolean => cli?.settingSources === undefined || cli.settingSources.includes(scope);
    const scopes = (['local', 'project', 'user'] as const).filter(reads);
    const root = projectBoundary(this.context.projectRoot, this.context.homeDir);
    // Every spelling of each scope's file (settings.yaml, .yml, .json) is read: a deny rule in the
    // one a reader skipped would be lost without a word.
    const [approvals, ...files] = await Promise.all([
      reads('user') ? readSettingsFile('local', this.approvalsFile, this.context.trust, undefined, 'user') : NO_APPROVALS,
      ...scopes.flatMap((scope) => this.files[scope].map((file) => readSettingsFile(scope, file, this.context.trust, root))),
    ]);
    const inputs: RuleInput[] = [];
    for (const file of files) {
      (this.loaded[file.scope] ??= []).push(file);
      for (const warning of file.warnings) this.context.warn(warning);
      for (const raw of file.rules) inputs.push({ list: raw.list, value: raw.value, origin: { scope: file.scope, source: file.file, where: raw.where } });
    }
    const warned = new Set<string>();
    for (const scope of [...scopes].reverse()) {
      // Claude Code's file is not a spelling of MewCode's.
      const existing = (this.loaded[scope] ?? []).filter((file) => file.exists && !isClaudeSettingsFile(file.file)).map((file) => file.file);
      const warning = spellingsWarning(scope, existing);
      // In the home directory the project's files are the user's: said once.
      if (warning === undefined || warned.has(existing.join('\0'))) continue;
      warned.add(existing.join('\0'));
      this.context.warn(warning);
    }
    const ignored = ignoredClaudeKeysNotice(files);
    if (ignored !== undefined) this.context.warn(ignored);
    // Answers the user gave: the local layer's precedence, and the user's own rules (they may pass a protected path).
    for (const warning of approvals!.warnings) this.context.warn(warning);
    for (const raw of approvals!.rules) inputs.push({ list: raw.list, value: raw.value, origin: { scope: 'local', source: approvals!.file, where: raw.where, userOwned: true } });
    for (const value of cli?.disallowedTools ?? []) inputs.push({ list: 'deny', value, origin: { scope: 'session', source: '--disallowedTools' } });
    for (const value of cli?.allowedTools ?? []) inputs.push({ list: 'allow', value, origin: { scope: 'session', source: '--allowedTools' } });
    for (const rule of await this.compile(this.withoutUnmanagedAllows(inputs))) this.engine.layer(rule.origin.scope).add(rule);
    await this.loadManaged();
    this.directories = undefined;
    this.loadedOnce = true;
  }

  /**
   * The managed settings' deny and ask rules, in the top layer. A managed rule that cannot be
   * compiled stops the run (this plugin is a safety layer: failing in apply is exit 2): an
   * organisation's restriction must not vanish with a warning the user may never read.
   */
  private async loadManaged(): Promise<void> {
    const managed = this.context.managed;
    if (!managed) return;
    const inputs: RuleInput[] = [];
    for (const list of ['deny', 'ask'] as const) {
      for (const { rule, where } of managed.permissions[list]) inputs.push({ list, value: rule, origin: { scope: 'managed', source: 'managed settings', where } });
    }
    if (inputs.length === 0) return;
    const problems: string[] = [];
    const compiled = await this.compile(inputs, (input, error) => problems.push(`${input.origin.where}: ${input.list} rule ${JSON.stringify(input.value)}: ${error}`));
    if (problems.length > 0) throw new Error(`managed settings: ${problems.join('; ')}; MewCode does not run with a managed rule it cannot apply`);
    for (const rule of compiled) this.engine.layer('managed').add(rule);
  }

  /** With `allow_managed_rules_only`, no allow rule but the organisation's applies: said once, with how many were left out. */
  private withoutUnmanagedAllows(inputs: readonly RuleInput[]): RuleInput[] {
    const only = this.context.managed?.permissions.managedRulesOnly;
    if (!only) return [...inputs];
    const kept = inputs.filter((input) => input.list !== 'allow');
    const dropped = inputs.length - kept.length;
    if (dropped > 0) this.context.warn(`${PREFIX} ${dropped} allow rule${dropped === 1 ? '' : 's'} ignored: managed settings apply only their own permission rules (${only.where}: allow_managed_rules_only)`);
    return kept;
  }

  /** Whether an approval may become a rule (not with `allow_managed_rules_only`: it then allows that one call only). */
  private grantsAllowed(): boolean {
    const only = this.context.managed?.permissions.managedRulesOnly;
    if (!only) return true;
    if (!this.warnedGrant) {
      this.warnedGrant = true;
      this.context.warn(`${PREFIX} approvals are not remembered: managed settings apply only their own permission rules (${only.where}: allow_managed_rules_only); each call asks`);
    }
    return false;
  }

  private warnedGrant = false;

  /** Parse, load what the patterns need, compile; broken rules are reported (in order) and skipped (K2). */
  async compile(inputs: readonly RuleInput[], report: (input: RuleInput, error: string) => void = (input, error) => this.reportBadRule(input, error)): Promise<CompiledRule[]> {
    const results = inputs.map((input) => ({ input, parsed: parseRule(input.value, input.list) }));
    const needs = { glob: false, regex: false };
    for (const { parsed } of results) {
      if (!parsed.ok) continue;
      const need = patternNeeds(parsed.rule.pattern, commandsOnly(parsed.rule.tool));
      needs.glob ||= need.glob;
      needs.regex ||= need.regex;
    }
    await loadMatcherDeps(needs);
    const compiled: CompiledRule[] = [];
    for (const { input, parsed } of results) {
      if (!parsed.ok) {
        report(input, parsed.error);
        continue;
      }
      const candidate = new CompiledRule(parsed.rule, input.list, input.origin, pathBasesFor(input.origin.scope, this.context.projectRoot, this.context.homeDir));
      try {
        candidate.precompile();
        compiled.push(candidate);
      } catch (error) {
        report(input, (error as Error).message);
      }
    }
    return compiled;
  }

  private reportBadRule(input: RuleInput, error: string): void {
    const where = input.origin.where ?? input.origin.source;
    const shown = typeof input.value === 'string' ? JSON.stringify(input.value) : String(JSON.stringify(input.value) ?? input.value);
    this.context.warn(`${PREFIX} ${where}: ${input.list} rule ${shown} skipped: ${error}`);
  }

  /**
   * Rules that name no tool (a typo), and rules that can never match: an allow rule naming a
   * parameter of its tool (`Agent(model:opus)`: parameter rules are for deny and ask only). A
   * rule naming one of Claude Code's tools MewCode lacks (`WebFetch(domain:…)`, `WebSearch`)
   * is no mistake: it takes nothing away and allows nothing, said by no warning. Called once every
   * plugin has registered its tools (the plugin's `start`): the agent tool comes after the rules.
   *
   * A managed rule naming no known tool (`Bahs(rm *)`) stops the run, as any managed rule that
   * cannot apply does: kept with a warning, the organisation's deny would match nothing, silently.
   * Every list of the managed layer is checked (managed settings have deny and ask only; an allow
   * list there is refused when the file is read).
   */
  warnUnknownTools(): void {
    const tools = this.context.tools;
    if (!tools) return;
    const managedProblems: string[] = [];
    for (const layer of this.engine.layers) {
      for (const rules of Object.values(layer.rules)) {
        for (const rule of rules) {
          const tool = rule.parsed.tool;
          if (tool.kind !== 'name' || isClaudeOnlyTool(tool.name) || tool.name.startsWith('mcp__')) continue;
          this.warnOutsideAllow(rule);
          const registered = tools.get(fromClaudeToolName(tool.name));
          const param = rule.list === 'allow' ? paramForm(rule) : undefined;
          if (registered && param && toolHasParam(registered, param.key)) {
            this.context.warn(
              `${PREFIX} ${rule.origin.where ?? rule.origin.source}: allow rule "${rule.text}" can never match: a rule on a parameter (${param.key}:…) ` +
                `applies in deny and ask lists only (as in Claude Code); nothing is allowed by it`,
            );
            continue;
          }
          if (tool.name in FRIENDLY_NAMES || registered) continue;
          if (rule.origin.scope === 'managed') {
            managedProblems.push(`${rule.origin.where ?? rule.origin.source}: ${rule.list} rule "${rule.text}" names no known tool (${nearestToolHint(tool.name, tools)})`);
            continue;
          }
          this.context.warn(
            `${PREFIX} ${rule.origin.where ?? rule.origin.source}: ${rule.list} rule "${rule.text}" names no known tool ` +
              `(use ${Object.keys(FRIENDLY_NAMES).join(', ')}, a registered tool name, or mcp__server__tool); kept in case the tool appears later`,
          );
        }
      }
    }
    if (managedProblems.length > 0) {
      throw new Error(`managed settings: ${managedProblems.join('; ')}; MewCode does not run with a managed rule it cannot apply`);
    }
  }

  /**
   * An allow rule for a tool that cannot act outside the project whatever a rule says — the write
   * tools, glob and grep (only read_file reads a file such a rule names: outside-read.ts) — naming
   * a place outside the project and the additional directories (`Edit(//srv/site/**)`,
   * `Grep(~/notes/**)`): Claude Code's rule, which allows nothing here. Said once, with the way.
   */
  private warnOutsideAllow(rule: CompiledRule): void {
    if (rule.list !== 'allow' || !rule.namesOutsidePath()) return;
    const tool = fromClaudeToolName((rule.parsed.tool as { name: string }).name);
    if (!['edit_file', 'write_file', 'glob', 'grep'].includes(tool)) return;
    const prefix = rule.literalPrefix();
    const inside = [this.context.projectRoot, ...this.settings().additionalDirectories()];
    if (prefix === undefined || inside.some((dir) => isPathWithin(dir, prefix))) return;
    this.context.warn(
      `${PREFIX} ${rule.origin.where ?? rule.origin.source}: allow rule "${rule.text}" names ${prefix}, outside the project: ` +
        `${tool === 'glob' || tool === 'grep' ? 'glob and grep search' : 'the file tools write'} only in the project and permissions.additionalDirectories, so it allows nothing there; add the folder to additionalDirectories to let them`,
    );
  }

  async check(request: PermissionRequest): Promise<PermissionVerdict | undefined> {
    const context = engineContext(this.context.homeDir, this.context.parseCommand);
    const verdict = await this.engine.check(request, context);
    if (verdict?.decision === 'deny') return verdict;
    if (needsCallChecks(request)) {
      const { checkCommandReads, checkProtectedPaths } = await loadCallChecks();
      // Read rules cover what a command visibly reads (files, trees, git's objects): deny or ask.
      const reads = await checkCommandReads(request, this.engine, context);
      if (reads?.decision === 'deny') return reads;
      // Protected paths ask in every mode, before the mode layer could allow.
      const sandboxed = request.target.kind === 'command' && (await this.context.confined?.(request.toolName)) === true;
      const guarded = await checkProtectedPaths(request, this.engine, { ...context, sandboxed });
      if (guarded) return guarded;
      if (reads) return reads;
    }
    // Plan mode stays read-only: a rule may deny or ask there, but never let a change through.
    if (verdict?.decision === 'allow' && request.mode === 'plan' && request.category !== 'read') return undefined;
    return verdict;
  }

  /**
   * The managed rules alone, for the early tap (index.ts): a managed deny ends the chain there,
   * a managed ask is a floor no later layer's allow (a policy plugin's, a user rule's) lifts.
   * Undefined when managed settings have no rule or none matches.
   */
  async checkManaged(request: PermissionRequest): Promise<PermissionVerdict | undefined> {
    if (this.engine.layer('managed').size === 0) return undefined;
    const context = engineContext(this.context.homeDir, this.context.parseCommand);
    const verdict = await this.managedEngine.check(request, context);
    if (verdict?.decision === 'deny' || request.target.kind !== 'command') return verdict;
    const { checkCommandReads } = await loadCallChecks();
    const reads = await checkCommandReads(request, this.managedEngine, context);
    return reads ?? verdict;
  }

  /** The tools, among these, that a deny rule without a pattern takes away whole (left out of model requests). */
  hiddenTools(toolNames: readonly string[]): Set<string> {
    return hiddenTools(this.engine.layers, toolNames);
  }

  suggest(request: Pick<PermissionRequest, 'toolName' | 'target' | 'projectRoot'>): string {
    return suggestRule(request, this.context.homeDir);
  }

  /** "Allow for this session": an exact session rule. */
  async grantSession(rule: string, source = 'approval'): Promise<boolean> {
    if (!this.grantsAllowed()) return false;
    const [compiled] = await this.compile([{ list: 'allow', value: rule, origin: { scope: 'session', source } }]);
    return compiled ? this.engine.layer('session').add(compiled) : false;
  }

  /** "Allow always": applied now, and appended to the user's saved approvals for this project. */
  async grantLocal(rule: string): Promise<boolean> {
    if (!this.grantsAllowed()) return false;
    const file = this.approvalsFile;
    const [compiled] = await this.compile([{ list: 'allow', value: rule, origin: { scope: 'local', source: file, userOwned: true } }]);
    if (!compiled) return false;
    this.engine.layer('local').add(compiled);
    try {
      const { appendAllowRule } = await loadCallChecks();
      await appendAllowRule(file, compiled.text);
      return true;
    } catch (error) {
      this.context.warn(`${PREFIX} could not save "${compiled.text}" to ${file}: ${(error as Error).message}. It applies for this session only.`);
      return false;
    }
  }

  async revoke(rule: string, scope: GrantScope): Promise<boolean> {
    const text = rule.trim();
    if (scope === 'session') return this.engine.layer('session').remove(text, 'allow') > 0;
    const inMemory = this.engine.layer('local').remove(text, 'allow');
    let inFile = 0;
    const { removeAllowRule } = await loadCallChecks();
    // The saved approvals, and the project's settings.local.yaml (where earlier versions saved them).
    for (const file of [this.approvalsFile, this.files.local[0]!]) {
      try {
        inFile += await removeAllowRule(file, text);
      } catch (error) {
        this.context.warn(`${PREFIX} could not remove "${text}" from ${file}: ${(error as Error).message}`);
      }
    }
    return inMemory + inFile > 0;
  }

  grants(): ApprovalGrant[] {
    const grants: ApprovalGrant[] = [];
    for (const scope of ['session', 'local'] as const) {
      for (const rule of this.engine.layer(scope).rules.allow) {
        grants.push({ rule: rule.text, scope, source: rule.origin.where ?? rule.origin.source });
      }
    }
    return grants;
  }

  private directories: string[] | undefined;
  /** Set at the end of load(): the directories are cached only from then on. */
  private loadedOnce = false;
  /** `--add-dir`: the user's own choice for this run, like a directory in the user's settings. */
  private runDirectories: string[] = [];

  private resolveDirectories(): string[] {
    const seen = new Set<string>();
    for (const dir of this.runDirectories) seen.add(path.resolve(this.context.projectRoot, expandHome(dir, this.context.homeDir)));
    for (const scope of ['local', 'project', 'user'] as const) {
      for (const dir of (this.loaded[scope] ?? []).flatMap((file) => file.additionalDirectories)) {
        seen.add(path.resolve(this.context.projectRoot, expandHome(dir, this.context.homeDir)));
      }
    }
    return [...seen];
  }

  /** The PermissionSettings service. */
  /** What glob and grep must leave out (TOKENS.SearchPolicy). */
  searchPolicy(): SearchPolicy {
    return { hiddenFiles: (toolName) => this.engine.searchFilter(toolName, this.context.projectRoot, this.context.homeDir) };
  }

  /** The settings file whose default mode applies: the nearest scope's; within a scope, the first in reading order that sets it. */
  private modeFile(): SettingsFile | undefined {
    return (['local', 'project', 'user'] as const).flatMap((scope) => this.loaded[scope] ?? []).find((file) => file.defaultMode !== undefined);
  }

  settings(): PermissionSettings {
    return {
      // Called by the sandbox on every path check: computed once (the files are read at boot).
      // Not kept before load(): a plugin asking earlier (in its own apply) must not fix an empty list.
      additionalDirectories: () => [...(this.loadedOnce ? (this.directories ??= this.resolveDirectories()) : this.resolveDirectories())],
      // The nearest scope's; within a scope, the first file in reading order that sets it.
      defaultMode: (): PermissionMode | undefined => this.modeFile()?.defaultMode,
      // The same file's `defaultMode: dontAsk`.
      defaultDontAsk: (): boolean => this.modeFile()?.dontAsk === true,
      bypassDisabledBy: (): string | undefined => (['local', 'project', 'user'] as const).flatMap((scope) => this.loaded[scope] ?? []).find((file) => file.disableBypassMode !== undefined)?.disableBypassMode,
      readRulePrefixes: () => this.engine.readRulePrefixes('read_file'),
      outsideReadRule: (toolName: string, paths: readonly string[]): string | undefined => {
        const rule = this.engine.outsideReadRule(toolName, paths);
        return rule && `${rule.describeOrigin()} "${rule.text}"`;
      },
    };
  }

  /** The Approvals service. */
  approvals(): Approvals {
    return {
      list: () => this.grants(),
      revoke: (rule, scope) => this.revoke(rule, scope),
      suggestRule: (request) => this.suggest(request),
      managedRulesOnly: () => this.context.managed?.permissions.managedRulesOnly?.where,
      localSettingsFile: () => this.approvalsFile,
    };
  }
}

export type { Scope };
