// Shared by the provider plugins' tests: collecting events, building requests, a tool set with a nested schema.
import { getEventListeners } from 'node:events';
import type { ModelRequest, Provider, ProviderEvent, ProviderSettings, ToolDefinition } from '../../types/index.js';

export async function collect(
  provider: Provider,
  request: ModelRequest,
  signal: AbortSignal = new AbortController().signal,
  onEvent?: (event: ProviderEvent) => void,
): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream(request, signal)) {
    events.push(event);
    onEvent?.(event);
  }
  return events;
}

export function textOf(events: ProviderEvent[]): string {
  return events.map((e) => (e.type === 'text' ? e.text : '')).join('');
}

export function only<T extends ProviderEvent['type']>(events: ProviderEvent[], type: T): Extract<ProviderEvent, { type: T }>[] {
  return events.filter((e): e is Extract<ProviderEvent, { type: T }> => e.type === type);
}

export function last(events: ProviderEvent[]): ProviderEvent {
  const event = events.at(-1);
  if (!event) throw new Error('no events');
  return event;
}

export function request(partial: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: { stable: 'You are MewCode.', environment: 'cwd: /repo' },
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    tools: [],
    ...partial,
  };
}

/** A schema using the keywords a lossy converter drops (enum, items, additionalProperties, nesting). */
export const EDIT_SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'file to edit' },
    mode: { type: 'string', enum: ['replace', 'insert', 'delete'] },
    edits: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: { old: { type: 'string' }, new: { type: 'string' }, line: { type: 'integer', minimum: 1 } },
        required: ['old', 'new'],
        additionalProperties: false,
      },
    },
    options: { type: 'object', additionalProperties: { type: 'boolean' } },
  },
  required: ['path', 'edits'],
  additionalProperties: false,
  $defs: { unused: { type: 'null' } },
};

export const TOOLS: ToolDefinition[] = [
  { name: 'edit_file', description: 'Edit a file', inputSchema: EDIT_SCHEMA },
  { name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
];

export type SettingsOverrides = Partial<ProviderSettings>;

/**
 * Streams `count` answers through one provider on one run signal and reports what a long run
 * leaves behind: process warnings (MaxListenersExceededWarning) and abort listeners on the signal.
 */
export async function manyRequestsOnOneSignal(model: Provider, pushAnswer: (index: number) => void, count: number): Promise<{ warnings: Error[]; listeners: number; lastTypes: string[] }> {
  const run = new AbortController();
  const warnings: Error[] = [];
  const lastTypes: string[] = [];
  const onWarning = (warning: Error): number => warnings.push(warning);
  process.on('warning', onWarning);
  try {
    for (let i = 0; i < count; i++) {
      pushAnswer(i);
      const events: ProviderEvent[] = [];
      for await (const event of model.stream(request(), run.signal)) events.push(event);
      lastTypes.push(last(events).type);
    }
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  return { warnings, listeners: getEventListeners(run.signal, 'abort').length, lastTypes };
}
