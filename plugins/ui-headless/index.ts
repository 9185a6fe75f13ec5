/** Headless mode (`mewcode -p`): one prompt or slash command, output on stdout, the rest on stderr. */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { HEADLESS_NAME } from './headless-output.js';
import { HeadlessUserInterface } from './headless-ui.js';

export default definePlugin({
  name: HEADLESS_NAME,
  version: '0.2.0',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.UserInterface)
      .toDynamicValue((context) => new HeadlessUserInterface(process.stdout, process.stderr, () => context.get(TOKENS.Approvals, { optional: true })))
      .inSingletonScope();
  }),
});
