/**
 * How the container hands out the services plugins bind under TOKENS: sealed (types/sealed-service.ts),
 * whoever bound them. Any plugin resolves them, and each is one object for every resolver: a
 * configured plugin that could set a field or replace a method of one (raise bash's output cap,
 * empty the audit log's records, answer approvals through the UI's output) would change it for the
 * organisation's required plugins and the kernel too. A plugin of the build hands out its contract
 * only (a frozen object of the contract's functions); this covers any other plugin's service (a
 * managed plugin's, a custom build's), which its author may not have frozen.
 *
 * Not here: what the kernel binds itself (already views), tools and commands (sealed where they are
 * registered), provider factories (sealed-provider.ts).
 *
 * The handlers are added once every plugin's bindings module has loaded: inversify drops a
 * service's activation handlers when it is unbound, as a `replaces` does to the incumbent's binding.
 */
import type { Container, ServiceIdentifier } from 'inversify';
import type { UserInterface, UserOutput } from '../types/plugin.js';
import { sealedService } from '../types/sealed-service.js';
import { TOKENS } from '../types/tokens.js';
import type { OutputLimits } from '../types/output-limits.js';
import { boundedOutputLimits } from './bounded-output-limits.js';

const SEALED_ELSEWHERE: ReadonlySet<ServiceIdentifier> = new Set<ServiceIdentifier>([
  TOKENS.Kernel,
  TOKENS.Conversation,
  TOKENS.ToolRegistry,
  TOKENS.ProviderRegistry,
  TOKENS.Reporter,
  TOKENS.Config,
  TOKENS.FileReads,
  TOKENS.ManagedPolicy,
  TOKENS.Tool,
  TOKENS.Command,
  TOKENS.ProviderFactory,
  TOKENS.UserInterface,
]);

export function sealPluginServices(container: Container, warn: (message: string) => void = () => undefined): void {
  for (const token of Object.values(TOKENS) as ServiceIdentifier[]) {
    if (SEALED_ELSEWHERE.has(token) || token === TOKENS.OutputLimits) continue;
    container.onActivation(token, (_context, service: unknown) => (typeof service === 'object' && service !== null ? sealedService(service) : service));
  }
  // Sealed, and each cap held to its range (bounded-output-limits.ts): the audit log and bash read them.
  container.onActivation(TOKENS.OutputLimits, (_context, limits: OutputLimits) =>
    typeof limits === 'object' && limits !== null ? boundedOutputLimits(sealedService(limits), warn) : limits,
  );
  container.onActivation(TOKENS.UserInterface, (_context, ui) => sealedUserInterface(ui));
}

/**
 * A UI as the CLI and every plugin get it: its name, handles, run, decideTrust, endReason and an output of
 * notify and approve, read once. sealedService would not do: the output is an object with methods
 * (no plain data to copy), and it is what answers approvals as the user.
 */
function sealedUserInterface(ui: UserInterface): UserInterface {
  const output: UserOutput = ui.output;
  const notify = output.notify.bind(output);
  const approve = output.approve?.bind(output);
  const sealed: UserInterface = {
    name: ui.name,
    handles: ui.handles.bind(ui),
    output: Object.freeze(approve ? { notify, approve } : { notify }),
    run: ui.run.bind(ui),
    ...(ui.decideTrust ? { decideTrust: ui.decideTrust.bind(ui) } : {}),
    ...(ui.endReason ? { endReason: ui.endReason.bind(ui) } : {}),
  };
  return Object.freeze(sealed);
}
