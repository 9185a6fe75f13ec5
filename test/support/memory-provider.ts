/**
 * An in-memory provider for kernel unit tests (only unit tests use it; the CLI and security tests
 * talk to the scripted model server over HTTP). Each request consumes one scripted step: a list of events, or a function that
 * receives the request and signal and yields events.
 */
import { ContainerModule } from 'inversify';
import { definePlugin, type MewcodePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { ModelRequest, Provider, ProviderEvent, ProviderFactory, ProviderSettings } from '../../types/provider.js';
import { ProviderError } from '../../types/provider.js';
import type { ToolCall, Usage } from '../../types/messages.js';

export type Step = ProviderEvent[] | ((request: ModelRequest, signal: AbortSignal) => AsyncIterable<ProviderEvent>);

export interface MemoryModel {
  steps: Step[];
  /** Deep copies of every request, in order. */
  requests: ModelRequest[];
  plugin: MewcodePlugin;
}

export const usage = (input = 10, output = 5): Usage => ({ input, output, cacheWrite: 0, cacheRead: 0 });

/** A text answer. */
export function say(text: string): ProviderEvent[] {
  return [{ type: 'text', text }, { type: 'usage', usage: usage() }, { type: 'done', content: [{ type: 'text', text }], stopReason: 'end_turn' }];
}

let nextId = 0;
export function call(name: string, input: unknown = {}): ToolCall {
  return { id: `call_${++nextId}`, name, input: typeof input === 'string' ? input : JSON.stringify(input) };
}

/** A turn that asks for tools (optionally with some text first). */
export function useTools(calls: ToolCall[], text = ''): ProviderEvent[] {
  const events: ProviderEvent[] = [];
  if (text) events.push({ type: 'text', text });
  events.push({ type: 'tool_calls', calls }, { type: 'usage', usage: usage() });
  events.push({ type: 'done', content: text ? [{ type: 'text', text }] : [], stopReason: 'tool_use' });
  return events;
}

export function fail(kind: ProviderError['kind'], message: string): ProviderEvent[] {
  return [{ type: 'error', error: new ProviderError(kind, message) }];
}

export function memoryModel(steps: Step[] = [], options: { contextWindow?: number } = {}): MemoryModel {
  const model: MemoryModel = { steps, requests: [], plugin: undefined as unknown as MewcodePlugin };
  const factory: ProviderFactory = {
    protocol: 'memory',
    apiKeyEnv: 'MEMORY_API_KEY',
    baseUrlEnv: 'MEMORY_BASE_URL',
    defaultContextWindow: options.contextWindow ?? 100_000,
    create(settings: ProviderSettings): Provider {
      return {
        id: settings.name,
        protocol: settings.protocol,
        model: settings.model,
        contextWindow: settings.contextWindow,
        async *stream(request, signal) {
          model.requests.push(structuredClone({ ...request, messages: [...request.messages], tools: [...request.tools] }));
          const step = model.steps.shift();
          if (!step) {
            yield { type: 'error', error: new ProviderError('unknown', 'memory provider: no scripted step left') };
            return;
          }
          if (Array.isArray(step)) yield* step;
          else yield* step(request, signal);
        },
      };
    },
  };
  model.plugin = definePlugin({
    name: 'provider-memory',
    bindings: new ContainerModule(({ bind }) => {
      bind(TOKENS.ProviderFactory).toConstantValue(factory);
    }),
  });
  return model;
}

/** Environment that selects the memory provider without any config file. */
export const memoryEnv = { MEWCODE_PROVIDER: 'memory', MEWCODE_MODEL: 'memory-model', MEMORY_API_KEY: 'k' };
