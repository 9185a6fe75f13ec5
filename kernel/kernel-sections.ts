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
  base_url: z.optional(z.url()),
  context_window: z.optional(positiveInt()),
  /** false: the model takes no image input (a text-only local model); images reach it described. */
  images: z.optional(z.boolean()),
  max_tokens: z.optional(positiveInt()),
  thinking: z.optional(thinkingSchema),
  max_retries: z.optional(z.int().check(z.gte(0), z.lte(20))),
  retry_base_delay_ms: z.optional(z.int().check(z.gte(0))),
});
export type ProviderEntry = z.infer<typeof providerEntrySchema>;

export const kernelSections = {
  plugins: zodSection('plugins', z.array(nonEmpty())),
  disable: zodSection('disable', z.array(nonEmpty())),
  provider: zodSection('provider', nonEmpty()),
  maxTurns: zodSection('max_turns', positiveInt()),
  maxToolConcurrency: zodSection('max_tool_concurrency', positiveInt()),
  /** One entry of `providers:` (validated one by one, see kernel-config.ts). */
  providerEntry: zodSection('providers', providerEntrySchema),
};
