/**
 * OpenAI Chat Completions provider plugin (api.openai.com and any compatible endpoint via
 * base_url). Binding is cheap: the SDK is imported on the first request (see sdk.ts).
 */
import { ContainerModule } from 'inversify';
import { definePlugin, TOKENS } from '../../types/index.js';
import { openAIProviderFactory } from './factory.js';

export { openAIProviderFactory } from './factory.js';

export default definePlugin({
  name: 'provider-openai',
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.ProviderFactory).toConstantValue(openAIProviderFactory);
  }),
});
