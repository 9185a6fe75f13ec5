import type { Provider, ProviderFactory, ProviderSettings } from '../../types/index.js';
import { OpenAIProvider } from './openai-provider.js';

export const openAIProviderFactory: ProviderFactory = {
  protocol: 'openai',
  apiKeyEnv: 'OPENAI_API_KEY',
  baseUrlEnv: 'OPENAI_BASE_URL',
  defaultContextWindow: 128_000,
  create(settings: ProviderSettings): Provider {
    return new OpenAIProvider(settings);
  },
};
