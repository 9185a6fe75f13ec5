/**
 * Schemas of the kernel's own configuration sections. Loaded (with zod) only when one of these
 * sections is present, so a run configured by environment variables alone never loads zod.
 */
import { z } from 'zod';
import { zodSection } from '../config/validate.js';

const thinkingSchema = z.union([
  z.boolean(),
  z.strictObject({ enabled: z.boolean().default(true), budget_tokens: z.number().int().min(1024).optional() }),
]);

export const providerEntrySchema = z.strictObject({
  name: z.string().min(1),
  protocol: z.string().min(1),
  model: z.string().min(1).optional(),
  api_key: z.string().optional(),
  base_url: z.string().url().optional(),
  context_window: z.number().int().positive().optional(),
  /** false: the model takes no image input (a text-only local model); images reach it described. */
  images: z.boolean().optional(),
  max_tokens: z.number().int().positive().optional(),
  thinking: thinkingSchema.optional(),
  max_retries: z.number().int().min(0).max(20).optional(),
  retry_base_delay_ms: z.number().int().min(0).optional(),
});
export type ProviderEntry = z.infer<typeof providerEntrySchema>;


export const kernelSections = {
  plugins: zodSection('plugins', z.array(z.string().min(1))),
  disable: zodSection('disable', z.array(z.string().min(1))),
  provider: zodSection('provider', z.string().min(1)),
  /** One entry of `providers:` (validated one by one, see kernel-config.ts). */
  providerEntry: zodSection('providers', providerEntrySchema),
};
