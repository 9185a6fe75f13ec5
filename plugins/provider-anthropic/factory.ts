import type { Provider, ProviderFactory, ProviderSettings } from '../../types/index.js';
import { AnthropicProvider } from './anthropic-provider.js';

export const anthropicProviderFactory: ProviderFactory = {
  protocol: 'anthropic',
  apiKeyEnv: 'ANTHROPIC_API_KEY',
  // Bearer auth, as Claude Code and the Anthropic SDK accept it (gateways issuing their own tokens)
  authTokenEnv: 'ANTHROPIC_AUTH_TOKEN',
  baseUrlEnv: 'ANTHROPIC_BASE_URL',
  defaultBaseUrl: 'https://api.anthropic.com',
  defaultContextWindow: 200_000,
  create(settings: ProviderSettings): Provider {
    return new AnthropicProvider(settings);
  },
};
