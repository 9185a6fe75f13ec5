/**
 * The terminal UI's `UserOutput`: notices and approval requests from the kernel's output route.
 * Before the screen exists (boot, the trust dialog) notices wait here; approvals need the screen.
 */
import type { NotificationPayload } from '../../types/hooks.js';
import type { ApprovalOutcome, ApprovalRequest } from '../../types/permissions.js';
import type { UserOutput } from '../../types/plugin.js';
import type { UiStore } from './model/ui-store.js';

export class TuiOutput implements UserOutput {
  private store: UiStore | undefined;
  private waiting: NotificationPayload[] = [];

  /** The screen is up: deliver what waited, in order. */
  attach(store: UiStore): void {
    this.store = store;
    for (const payload of this.waiting.splice(0)) store.notify(payload);
  }

  detach(): void {
    this.store = undefined;
  }

  notify(payload: NotificationPayload): void {
    if (this.store) this.store.notify(payload);
    else this.waiting.push(payload);
  }

  async approve(request: ApprovalRequest): Promise<ApprovalOutcome | undefined> {
    if (!this.store) return undefined;
    const choice = await this.store.requestApproval(request);
    return { choice, answeredBy: 'ui-tui', ...(choice === 'deny' ? { reason: 'the user chose deny' } : {}) };
  }
}
