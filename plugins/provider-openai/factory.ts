import type { Provider, ProviderFactory, ProviderSettings } from '../../types/index.js';
import { OpenAIProvider } from './openai-provider.js';
import { isOpenAIHost } from './request.js';

export const openAIProviderFactory: ProviderFactory = {
  protocol: 'openai',
  apiKeyEnv: 'OPENAI_API_KEY',
  baseUrlEnv: 'OPENAI_BASE_URL',
  defaultBaseUrl: 'https://api.openai.com/v1',
  defaultContextWindow: 128_000,
  // Ollama, vLLM and other local servers take no key; api.openai.com always does.
  apiKeyRequired: (baseUrl) => baseUrl === undefined || isOpenAIHost(baseUrl),
  create(settings: ProviderSettings): Provider {
    return new OpenAIProvider(settings);
  },
};
