/**
 * Headless mode. It also answers approval requests while it drives the session: with nobody to
 * ask, an "ask" is a deny whose reason names the flag that would allow the call.
 */
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { HeadlessUserInterface } from './headless-ui.js';

const NAME = 'ui-headless';

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  apply(kernel) {
    const ui = new HeadlessUserInterface();
    kernel.container.bind(TOKENS.UserInterface).toConstantValue(ui);
    kernel.hooks.requestApproval.tapPromise(NAME, async (request) => {
      if (!ui.active) return undefined; // an interactive UI answers instead
      return {
        choice: 'deny',
        answeredBy: NAME,
        reason:
          `${request.toolName} needs approval, which headless mode cannot ask for ` +
          `(${request.verdict.reason ?? request.verdict.layer}). Re-run with a --permission-mode that allows it, or add an allow rule to the settings.`,
      };
    });
  },
});
