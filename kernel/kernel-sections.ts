/**
 * Schemas of the kernel's own configuration sections. Loaded (with zod) only when one of these
 * sections is present, so a run configured by environment variables alone never loads zod.
 *
 * Written with zod's mini API: a configured run reads them before its first request, and the
 * classic API costs there. Its namespace carries every locale zod ships (esbuild cannot drop the
 * members of an object that is used), and each schema binds its whole method set when made. The
 * English messages are configured as the classic API does on import, so issues read the same.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { zodSection } from '../config/validate.js';

z.config(en());

const nonEmpty = () => z.string().check(z.minLength(1));
const positiveInt = () => z.int().check(z.positive());

const thinkingSchema = z.union([
  z.boolean(),
  z.strictObject({ enabled: z._default(z.boolean(), true), budget_tokens: z.optional(z.int().check(z.gte(1024))) }),
]);

export const providerEntrySchema = z.strictObject({
  name: nonEmpty(),
  protocol: nonEmpty(),
  model: z.optional(nonEmpty()),
  api_key: z.optional(z.string()),
  // Only http(s): a URL without a scheme ("localhost:8000/v1" parses with "localhost:" as one) or
  // with a typo ("htp://") would otherwise fail at every request, retried as a network error.
  base_url: z.optional(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL (e.g. http://localhost:8000/v1)' })),
  context_window: z.optional(positiveInt()),
  /** false: the model takes no image input (a text-only local model); images reach it described. */
  images: z.optional(z.boolean()),
  /** Chat Completions: send the model's reasoning back as `reasoning_content` (default: where the model needs it). */
  reasoning_content: z.optional(z.boolean()),
  max_tokens: z.optional(positiveInt()),
  /** Chat Completions: send the output limit as `max_completion_tokens` (reasoning models) instead of `max_tokens`. */
  max_completion_tokens: z.optional(z.boolean()),
  thinking: z.optional(thinkingSchema),
  /** Longest wait for the response and for each part of it, in ms (default: API_TIMEOUT_MS, else 300,000). */
  timeout_ms: z.optional(z.int().check(z.gte(1000), z.lte(3_600_000))),
  max_retries: z.optional(z.int().check(z.gte(0), z.lte(20))),
  retry_base_delay_ms: z.optional(z.int().check(z.gte(0))),
});
export type ProviderEntry = z.infer<typeof providerEntrySchema>;

/**
 * One entry of `plugins:`: a module name or path, or `{ use, required }`. A required plugin that
 * cannot be resolved, imported, matched to the kernel, bound, applied or started ends the run.
 */
export const pluginObjectSchema = z.strictObject({ use: nonEmpty(), required: z.optional(z.boolean()) });
export type PluginObjectEntry = z.infer<typeof pluginObjectSchema>;

export const kernelSections = {
  /** The list itself (entries are validated one by one: kernel-config.ts). */
  plugins: zodSection('plugins', z.array(z.unknown())),
  pluginName: zodSection('plugins', nonEmpty()),
  pluginObject: zodSection('plugins', pluginObjectSchema),
  plugin_start_timeout_ms: zodSection('plugin_start_timeout_ms', z.int().check(z.gte(0), z.lte(120_000))),
  disable: zodSection('disable', z.array(nonEmpty())),
  provider: zodSection('provider', nonEmpty()),
  maxTurns: zodSection('max_turns', positiveInt()),
  maxToolConcurrency: zodSection('max_tool_concurrency', positiveInt()),
  /** One entry of `providers:` (validated one by one, see kernel-config.ts). */
  providerEntry: zodSection('providers', providerEntrySchema),
};
