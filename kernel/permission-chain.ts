/**
 * The kernel's side of `checkPermission`: no tap, whatever its stage, can allow a call past the
 * essential layers (blacklist, sandbox). A non-essential tap at or before the sandbox stage may
 * only deny (which ends the chain) or ask (which sets a floor: the call is asked about even if a
 * later layer allows, and the essential layers still run). The kernel also records which tap
 * decided, so a PreToolUse "allow" can answer only the mode layer's question.
 *
 * A required plugin's layer (required on the plugin, by configuration or by managed settings) is
 * always asked: while one of its taps is still to come in this call, only a deny ends the chain.
 * An allow or an ask is held, the taps after it that are not a required plugin's are skipped (as
 * its verdict would have skipped them), and every later required layer is asked: its deny ends
 * the chain, its ask stands over a held allow (and its question over a configured plugin's), its
 * allow never lowers a held ask; after the last one, what is held ends the chain. So neither a
 * configured plugin's allow or ask nor the user's rules (--allowedTools, "allow for this
 * session", settings) nor the mode can pre-empt the organisation's deny or question; and a
 * required allow lifts no deny (a deny before it has ended the chain).
 *
 * Fail closed: a tap's answer must be `undefined` (no opinion) or a well-formed verdict; anything
 * else (a string, a number, an unknown decision, a missing layer) is a deny that names the plugin
 * and what it returned. A tap that does not answer within `timeoutMs` is a deny too, so a stuck
 * policy server cannot hang the session; the chain bounds the other decision hooks' taps as well
 * (boundDecisionTaps).
 */
import type { KernelHooks } from '../types/hooks.js';
import { PermissionStage, type PermissionRequest, type PermissionVerdict } from '../types/permissions.js';
import { APPROVAL_TAP_TIMEOUT_MS, bounded, boundDecisionTaps, HOOK_TAP_TIMEOUT_MS, type LateReason } from './decision-bounds.js';
import { noteVerdictOwner } from './decision-provenance.js';
import { defuseThenable, describeValue, isPermissionVerdict, plainSnapshot } from './decision-shapes.js';
import { pluginOfTap, type InterceptableTap, type TapTransform } from './hooks.js';
import type { TapRank } from './policy-taps.js';

/**
 * How long one permission layer may take to answer. Generous: a policy plugin may ask a server;
 * but bounded, because the user is waiting and nothing else would ever end the wait.
 */
export const PERMISSION_LAYER_TIMEOUT_MS = 30_000;

export interface Decider {
  plugin: string;
  stage: number;
  essential: boolean;
  /** A required plugin's layer (consulted before any other allow or ask stands). */
  required: boolean;
}

/** Whose layer it is: the build's (or the host's), a required plugin's, another configured plugin's. */
export type LayerRank = TapRank;

export interface ChainOutcome {
  verdict: PermissionVerdict;
  /** The tap that gave the verdict; undefined when no layer decided (the kernel asks). */
  decider: Decider | undefined;
}

export interface ChainOptions {
  isEssential(plugin: string): boolean;
  /** Whose layer a plugin's is; a required plugin's is consulted before any other allow or ask stands. Default: the build's. */
  rankOf?(plugin: string): LayerRank;
  /** Tell the user (a malformed or late answer is a plugin bug they must hear of). */
  warn(message: string): void;
  timeoutMs?: number;
  /** How long a preToolUse, userPromptSubmit, stop, postToolUse or preModelRequest tap may take (HOOK_TAP_TIMEOUT_MS). */
  hookTimeoutMs?: number;
  /** How long a requestApproval tap may take (APPROVAL_TAP_TIMEOUT_MS). */
  approvalTimeoutMs?: number;
  /** allow_managed_rules_only's `file:line:col` when the managed settings turn it on. */
  managedRulesOnly?(): string | undefined;
  /** Whether a plugin is one a managed settings file names (the organisation's own). */
  isManaged?(plugin: string): boolean;
}

type Held = { verdict: PermissionVerdict; decider: Decider; rank: LayerRank };

/** One checkPermission call's progress, kept per request (the kernel reads it in decide()). */
interface CallState {
  /** Required plugins' taps not yet asked in this call (counted when it starts: prepare()). */
  requiredLeft: number;
  /** An allow or ask given while required layers were still to be asked. */
  held?: Held;
  /** The ask of a non-essential layer at or before the sandbox stage. */
  floor?: Held;
  decider?: Decider;
}

/**
 * Whether a later ask or allow replaces the one held: a stricter one does (ask over allow), and
 * among questions a required plugin's replaces a configured plugin's, so the question put is the
 * organisation's. A required plugin's allow never replaces an ask.
 */
function replaces(next: Held, held: Held | undefined): boolean {
  if (!held) return true;
  const order = (decision: string): number => (decision === 'ask' ? 2 : 1);
  if (order(next.verdict.decision) !== order(held.verdict.decision)) return order(next.verdict.decision) > order(held.verdict.decision);
  return next.verdict.decision === 'ask' && next.rank === 'required' && held.rank === 'configured';
}

export class PermissionChain {
  private readonly calls = new WeakMap<PermissionRequest, CallState>();
  private readonly timeoutMs: number;
  private readonly boundHooks = new WeakSet<KernelHooks>();
  private readonly preparedHooks = new WeakSet<KernelHooks>();

  private ignoredAllowSaid = false;

  constructor(private readonly options: ChainOptions) {
    this.timeoutMs = options.timeoutMs ?? PERMISSION_LAYER_TIMEOUT_MS;
  }

  /**
   * Whether a preToolUse allow given by `plugin`'s tap (undefined: no plugin known) may answer the
   * mode layer's question. Under allow_managed_rules_only only a managed plugin's may: any other
   * (a user's PreToolUse hook, a configured plugin, a command's allowed-tools) is in effect an allow
   * rule of the user's, which the switch ignores. Said once, naming the managed file.
   */
  hookAllowCounts(plugin: string | undefined, shownBy: string): boolean {
    const where = this.options.managedRulesOnly?.();
    if (where === undefined || (plugin !== undefined && this.options.isManaged?.(plugin) === true)) return true;
    if (!this.ignoredAllowSaid) {
      this.ignoredAllowSaid = true;
      this.options.warn(`a preToolUse allow (${shownBy}) pre-approves nothing: the organisation's managed settings (${where}) allow only their own permission rules, so the call is decided as without it (deny and ask still apply)`);
    }
    return false;
  }

  /** Whether the user's allow rules count at all (not under allow_managed_rules_only). */
  userAllowRulesCount(): boolean {
    return this.options.managedRulesOnly?.() === undefined;
  }

  /**
   * Bound the taps of the other decision hooks (preToolUse, requestApproval, userPromptSubmit,
   * stop) and of postToolUse and preModelRequest of these hooks, once: the kernel calls it before
   * any plugin taps.
   */
  boundDecisionTaps(hooks: KernelHooks): void {
    if (this.boundHooks.has(hooks)) return;
    this.boundHooks.add(hooks);
    boundDecisionTaps(hooks, {
      hookMs: this.options.hookTimeoutMs ?? HOOK_TAP_TIMEOUT_MS,
      approvalMs: this.options.approvalTimeoutMs ?? APPROVAL_TAP_TIMEOUT_MS,
      warn: (message) => this.options.warn(message),
      isRequired: (plugin) => this.options.rankOf?.(plugin) === 'required',
    });
  }

  /**
   * Everything the chain needs of these hooks, once, before any plugin taps: the other decision
   * hooks bounded, and at each checkPermission call the required plugins' taps counted, so an
   * allow or ask ends the chain only once none is left to ask. (Hooks never prepared behave as if
   * no plugin were required: the first verdict after the sandbox ends the chain.)
   */
  prepare(hooks: KernelHooks): void {
    this.boundDecisionTaps(hooks);
    if (this.preparedHooks.has(hooks)) return;
    this.preparedHooks.add(hooks);
    const hook = hooks.checkPermission as unknown as { taps: readonly { name: string }[]; intercept(interceptor: { call(request: PermissionRequest): void }): void };
    hook.intercept({
      call: (request) => {
        const requiredLeft = hook.taps.filter((tap) => this.options.rankOf?.(pluginOfTap(tap.name)) === 'required').length;
        this.calls.set(request, { requiredLeft });
      },
    });
  }

  private stateOf(request: PermissionRequest): CallState {
    let state = this.calls.get(request);
    if (!state) this.calls.set(request, (state = { requiredLeft: 0 }));
    return state;
  }

  readonly transform: TapTransform = (tap: InterceptableTap) => {
    const plugin = pluginOfTap(tap.name);
    const stage = tap.stage ?? 0;
    // Asked when the tap runs: plugins tap during apply, once the plugin set (who is required) is known.
    const rank = (): LayerRank => this.options.rankOf?.(plugin) ?? 'build';
    /** Once an allow or ask is held, only the required plugins' layers are still asked. */
    const skipped = (request: PermissionRequest): boolean => this.calls.get(request)?.held !== undefined && rank() !== 'required';
    const refuse = (reason: string): PermissionVerdict => {
      this.options.warn(reason);
      return { decision: 'deny', layer: plugin, reason: `${reason}; denied` };
    };
    const settle = (request: PermissionRequest, answer: unknown): PermissionVerdict | undefined => {
      const state = this.stateOf(request);
      const layerRank = rank();
      if (layerRank === 'required') state.requiredLeft = Math.max(0, state.requiredLeft - 1);
      if (answer !== undefined) {
        defuseThenable(answer);
        // Read once, as plain data: a getter or a Proxy cannot pass the check and then say otherwise.
        const plain = plainSnapshot(answer);
        const verdict = isPermissionVerdict(plain)
          ? ownLayer(plain, plugin, (message) => this.options.warn(message))
          : refuse(`plugin ${plugin} returned a malformed permission verdict (${describeValue(answer)}): a permission layer answers undefined or { decision: 'allow' | 'deny' | 'ask', layer, reason? }`);
        noteVerdictOwner(verdict, plugin);
        const decider: Decider = { plugin, stage, essential: this.options.isEssential(plugin), required: layerRank === 'required' };
        if (verdict.decision === 'deny') {
          state.decider = decider;
          return verdict; // a deny ends the chain, whoever gives it
        }
        const given: Held = { verdict, decider, rank: layerRank };
        if (!decider.essential && stage <= PermissionStage.Sandbox) {
          // An allow (or ask) this early never ends the chain; an ask is a floor.
          if (verdict.decision === 'ask' && replaces(given, state.floor)) state.floor = given;
        } else if (replaces(given, state.held)) state.held = given;
      }
      // An allow or ask ends the chain once no required layer is left to ask.
      if (state.requiredLeft > 0 || !state.held) return undefined;
      state.decider = state.held.decider;
      return state.held.verdict;
    };
    // Said as it ended: at the bound, or at once when nothing was left running that could answer.
    const late = (why: LateReason): PermissionVerdict =>
      refuse(
        why === 'stalled'
          ? `plugin ${plugin} did not answer checkPermission, and its answer could never come (nothing was left running that could settle it)`
          : why === 'cancelled'
            ? `plugin ${plugin} did not answer checkPermission before the run was cancelled`
            : `plugin ${plugin} did not answer checkPermission within ${this.timeoutMs} ms`,
      );
    const { fn } = tap;
    switch (tap.type) {
      case 'sync':
        return (request) => (skipped(request as PermissionRequest) ? undefined : settle(request as PermissionRequest, fn(request)));
      case 'promise':
        return async (request) => (skipped(request as PermissionRequest) ? undefined : settle(request as PermissionRequest, await bounded(Promise.resolve(fn(request)), { ms: this.timeoutMs }, late)));
      case 'async':
        return (request, callback) => {
          if (skipped(request as PermissionRequest)) return (callback as (e: null, v: undefined) => void)(null, undefined);
          const answer = new Promise<unknown>((resolve, reject) => fn(request, (error: unknown, verdict?: unknown) => (error ? reject(error) : resolve(verdict))));
          bounded<unknown>(answer, { ms: this.timeoutMs }, late).then(
            (verdict) => (callback as (e: null, v: unknown) => void)(null, settle(request as PermissionRequest, verdict)),
            (error: unknown) => (callback as (e: unknown) => void)(error),
          );
        };
    }
  };

  async decide(hooks: KernelHooks, request: PermissionRequest): Promise<ChainOutcome> {
    const verdict = await hooks.checkPermission.promise(request);
    const state = this.calls.get(request);
    // What was held stands if a required layer went away during the call (its plugin removed).
    const outcome: ChainOutcome | undefined = verdict ? { verdict, decider: state?.decider } : state?.held && { verdict: state.held.verdict, decider: state.held.decider };
    const floor = state?.floor;
    if (!outcome) {
      if (floor) return { verdict: floor.verdict, decider: floor.decider };
      return { verdict: { decision: 'ask', layer: 'kernel', reason: 'no permission layer decided' }, decider: undefined };
    }
    // An early layer's ask stands over a later allow, and over a later ask too: the question put
    // is the policy's, which only the user may answer (never the mode layer's, which a plugin may).
    // A required plugin's question is put rather than a configured plugin's early one.
    const organisationAsks = outcome.verdict.decision === 'ask' && outcome.decider?.required === true && floor?.rank === 'configured';
    if (outcome.verdict.decision !== 'deny' && floor && !organisationAsks) return { verdict: floor.verdict, decider: floor.decider };
    return outcome;
  }
}

/**
 * A verdict's `layer` is its plugin's name, or `<name>:<detail>`: a plugin that answered as
 * `permission-rules:managed` would have its allow recorded in the audit log as the organisation's
 * rules. Another plugin's layer is replaced by the plugin's own name, said.
 */
function ownLayer(verdict: PermissionVerdict, plugin: string, warn: (message: string) => void): PermissionVerdict {
  if (verdict.layer === plugin || verdict.layer.startsWith(`${plugin}:`)) return verdict;
  warn(`plugin ${plugin} answered checkPermission as layer ${JSON.stringify(verdict.layer)}, which is not its own; it is recorded as ${plugin}`);
  return { ...verdict, layer: plugin };
}
