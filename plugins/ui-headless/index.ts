/**
 * Headless mode. It also answers approval requests while it drives the session: with nobody to
 * ask, an "ask" is a deny whose reason names the flag that would allow the call.
 */
import type { ApprovalRequest } from '../../types/permissions.js';
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { Approvals } from '../../types/services.js';
import { HeadlessUserInterface } from './headless-ui.js';

const NAME = 'ui-headless';


function shellQuote(text: string): string {
  return /["$`\\!]/.test(text) ? `'${text.replace(/'/g, `'\\''`)}'` : `"${text}"`;
}

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  apply(kernel) {
    const ui = new HeadlessUserInterface();
    kernel.container.bind(TOKENS.UserInterface).toConstantValue(ui);
    kernel.hooks.requestApproval.tapPromise(NAME, async (request) => {
      if (!ui.active) return undefined; // an interactive UI answers instead
      const why = `${request.toolName} needs approval, which headless mode cannot ask for (${request.verdict.reason ?? request.verdict.layer}).`;
      const approvals = kernel.container.isBound(TOKENS.Approvals) ? kernel.container.get<Approvals>(TOKENS.Approvals) : undefined;
      if (!approvals) {
        return { choice: 'deny', answeredBy: NAME, reason: `${why} Re-run with a --permission-mode that allows it, or add an allow rule to the settings.` };
      }
      // Name the exact rule (and, when the mode asked, the mode) that would allow this call.
      const rule = approvals.suggestRule(request);
      const mode = request.verdict.layer === 'permission-mode' ? `, or re-run with --permission-mode ${request.category === 'write' ? 'acceptEdits' : 'bypassPermissions'}` : '';
      return {
        choice: 'deny',
        answeredBy: NAME,
        reason: `${why} Allow it with --allowedTools ${shellQuote(rule)} or add ${JSON.stringify(rule)} to permissions.allow in .mewcode/settings.local.yaml${mode}.`,
      };
    });
  },
});
