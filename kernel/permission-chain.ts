/**
 * The kernel's side of `checkPermission`: no tap, whatever its stage, can allow a call past the
 * essential layers (blacklist, sandbox). A non-essential tap at or before the sandbox stage may
 * only deny (which ends the chain) or ask (which sets a floor: the call is asked about even if a
 * later layer allows, and the essential layers still run). The kernel also records which tap
 * decided, so a PreToolUse "allow" can answer only the mode layer's question.
 */
import type { KernelHooks } from '../types/hooks.js';
import { PermissionStage, type PermissionRequest, type PermissionVerdict } from '../types/permissions.js';
import { pluginOfTap, type InterceptableTap, type TapTransform } from './hooks.js';

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

export class PermissionChain {
  private readonly floors = new WeakMap<PermissionRequest, { verdict: PermissionVerdict; decider: Decider }>();
  private readonly deciders = new WeakMap<PermissionRequest, Decider>();

  constructor(private readonly isEssential: (plugin: string) => boolean) {}

  readonly transform: TapTransform = (tap: InterceptableTap) => {
    const plugin = pluginOfTap(tap.name);
    const stage = tap.stage ?? 0;
    const settle = (request: PermissionRequest, verdict: PermissionVerdict | undefined): PermissionVerdict | undefined => {
      if (!verdict) return undefined;
      const decider = { plugin, stage, essential: this.isEssential(plugin) };
      if (!decider.essential && stage <= PermissionStage.Sandbox && verdict.decision !== 'deny') {
        if (verdict.decision === 'ask' && !this.floors.has(request)) this.floors.set(request, { verdict, decider });
        return undefined; // an allow (or ask) this early never ends the chain
      }
      this.deciders.set(request, decider);
      return verdict;
    };
    const { fn } = tap;
    switch (tap.type) {
      case 'sync':
        return (request) => settle(request as PermissionRequest, fn(request) as PermissionVerdict | undefined);
      case 'promise':
        return async (request) => settle(request as PermissionRequest, (await fn(request)) as PermissionVerdict | undefined);
      case 'async':
        return (request, callback) =>
          fn(request, (error: unknown, verdict?: PermissionVerdict) =>
            error ? (callback as (e: unknown) => void)(error) : (callback as (e: null, v: unknown) => void)(null, settle(request as PermissionRequest, verdict)),
          );
    }
  };

  async decide(hooks: KernelHooks, request: PermissionRequest): Promise<ChainOutcome> {
    const verdict = await hooks.checkPermission.promise(request);
    const floor = this.floors.get(request);
    if (!verdict) {
      if (floor) return floor;
      return { verdict: { decision: 'ask', layer: 'kernel', reason: 'no permission layer decided' }, decider: undefined };
    }
    if (verdict.decision === 'allow' && floor) return floor;
    return { verdict, decider: this.deciders.get(request) };
  }
}
