/**
 * The kernel's side of `checkPermission`: no tap, whatever its stage, can allow a call past the
 * essential layers (blacklist, sandbox). A non-essential tap at or before the sandbox stage may
 * only deny (which ends the chain) or ask (which sets a floor: the call is asked about even if a
 * later layer allows, and the essential layers still run). The kernel also records which tap
 * decided, so a PreToolUse "allow" can answer only the mode layer's question.
 *
 * Fail closed: a tap's answer must be `undefined` (no opinion) or a well-formed verdict; anything
 * else (a string, a number, an unknown decision, a missing layer) is a deny that names the plugin
 * and what it returned. A tap that does not answer within `timeoutMs` is a deny too, so a stuck
 * policy server cannot hang the session; the chain bounds the other decision hooks' taps as well
 * (boundDecisionTaps).
 */
import type { KernelHooks } from '../types/hooks.js';
import { PermissionStage, type PermissionRequest, type PermissionVerdict } from '../types/permissions.js';
import { APPROVAL_TAP_TIMEOUT_MS, bounded, boundDecisionTaps, HOOK_TAP_TIMEOUT_MS } from './decision-bounds.js';
import { defuseThenable, describeValue, isPermissionVerdict, plainSnapshot } from './decision-shapes.js';
import { pluginOfTap, type InterceptableTap, type TapTransform } from './hooks.js';

/**
 * How long one permission layer may take to answer. Generous: a policy plugin may ask a server;
 * but bounded, because the user is waiting and nothing else would ever end the wait.
 */
export const PERMISSION_LAYER_TIMEOUT_MS = 30_000;

export interface Decider {
  plugin: string;
  stage: number;
  essential: boolean;
}

export interface ChainOutcome {
  verdict: PermissionVerdict;
  /** The tap that gave the verdict; undefined when no layer decided (the kernel asks). */
  decider: Decider | undefined;
}

export interface ChainOptions {
  isEssential(plugin: string): boolean;
  /** Tell the user (a malformed or late answer is a plugin bug they must hear of). */
  warn(message: string): void;
  timeoutMs?: number;
  /** How long a preToolUse, userPromptSubmit or stop tap may take (HOOK_TAP_TIMEOUT_MS). */
  hookTimeoutMs?: number;
  /** How long a requestApproval tap may take (APPROVAL_TAP_TIMEOUT_MS). */
  approvalTimeoutMs?: number;
}

export class PermissionChain {
  private readonly floors = new WeakMap<PermissionRequest, { verdict: PermissionVerdict; decider: Decider }>();
  private readonly deciders = new WeakMap<PermissionRequest, Decider>();
  private readonly timeoutMs: number;
  private readonly boundHooks = new WeakSet<KernelHooks>();

  constructor(private readonly options: ChainOptions) {
    this.timeoutMs = options.timeoutMs ?? PERMISSION_LAYER_TIMEOUT_MS;
  }

  /**
   * Bound the taps of the other decision hooks (preToolUse, requestApproval, userPromptSubmit,
   * stop) of these hooks, once: the kernel calls it before any plugin taps.
   */
  boundDecisionTaps(hooks: KernelHooks): void {
    if (this.boundHooks.has(hooks)) return;
    this.boundHooks.add(hooks);
    boundDecisionTaps(hooks, {
      hookMs: this.options.hookTimeoutMs ?? HOOK_TAP_TIMEOUT_MS,
      approvalMs: this.options.approvalTimeoutMs ?? APPROVAL_TAP_TIMEOUT_MS,
      warn: (message) => this.options.warn(message),
    });
  }

  readonly transform: TapTransform = (tap: InterceptableTap) => {
    const plugin = pluginOfTap(tap.name);
    const stage = tap.stage ?? 0;
    const refuse = (reason: string): PermissionVerdict => {
      this.options.warn(reason);
      return { decision: 'deny', layer: plugin, reason: `${reason}; denied` };
    };
    const settle = (request: PermissionRequest, answer: unknown): PermissionVerdict | undefined => {
      if (answer === undefined) return undefined;
      defuseThenable(answer);
      // Read once, as plain data: a getter or a Proxy cannot pass the check and then say otherwise.
      const plain = plainSnapshot(answer);
      const verdict = isPermissionVerdict(plain)
        ? plain
        : refuse(`plugin ${plugin} returned a malformed permission verdict (${describeValue(answer)}): a permission layer answers undefined or { decision: 'allow' | 'deny' | 'ask', layer, reason? }`);
      const decider = { plugin, stage, essential: this.options.isEssential(plugin) };
      if (!decider.essential && stage <= PermissionStage.Sandbox && verdict.decision !== 'deny') {
        if (verdict.decision === 'ask' && !this.floors.has(request)) this.floors.set(request, { verdict, decider });
        return undefined; // an allow (or ask) this early never ends the chain
      }
      this.deciders.set(request, decider);
      return verdict;
    };
    const late = (): PermissionVerdict => refuse(`plugin ${plugin} did not answer checkPermission within ${this.timeoutMs} ms`);
    const { fn } = tap;
    switch (tap.type) {
      case 'sync':
        return (request) => settle(request as PermissionRequest, fn(request));
      case 'promise':
        return async (request) => settle(request as PermissionRequest, await bounded(Promise.resolve(fn(request)), { ms: this.timeoutMs }, late));
      case 'async':
        return (request, callback) => {
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
    const floor = this.floors.get(request);
    if (!verdict) {
      if (floor) return floor;
      return { verdict: { decision: 'ask', layer: 'kernel', reason: 'no permission layer decided' }, decider: undefined };
    }
    // An early layer's ask stands over a later allow, and over a later ask too: the question put
    // is the policy's, which only the user may answer (never the mode layer's, which a plugin may).
    if (verdict.decision !== 'deny' && floor) return floor;
    return { verdict, decider: this.deciders.get(request) };
  }
}
