/**
 * The interactive terminal UI (U1): `mewcode` in a terminal without `-p`. Binding it costs
 * nothing: React, Ink and the markdown renderer are a separate chunk imported only when this UI
 * runs, so `--version`, `-p` and headless start-up never load them.
 */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { TuiUserInterface } from './tui-ui.js';

export default definePlugin({
  name: 'ui-tui',
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.UserInterface).toDynamicValue(() => new TuiUserInterface()).inSingletonScope();
  }),
});
