/**
 * Anthropic Messages provider plugin. Binding is cheap: the SDK is imported on the first request
 * (see sdk.ts), so start-up never pays for it.
 */
import { ContainerModule } from 'inversify';
import { definePlugin, TOKENS } from '../../types/index.js';
import { anthropicProviderFactory } from './factory.js';

export { anthropicProviderFactory } from './factory.js';

export default definePlugin({
  name: 'provider-anthropic',
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.ProviderFactory).toConstantValue(anthropicProviderFactory);
  }),
});
