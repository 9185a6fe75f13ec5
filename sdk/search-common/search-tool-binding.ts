/**
 * How glob and grep are bound: the definition is known at boot, the implementation is imported
 * on the first call (lazyTool), and it reads the permission rules' SearchPolicy when bound, and
 * the directories besides the project the sandbox lets a read-only tool into (additional
 * directories, an active skill's folder), so a search reaches exactly what read_file reaches;
 * MewCode's private records (session records, saved tool outputs) are left out of every search,
 * whatever the rules — but for a search started in the session's own saved outputs, which the
 * bash result tells the model to search with grep (sdk/private-records.ts).
 */
import { ContainerModule } from 'inversify';
import { lazyTool } from '../lazy-tool.js';
import { withShownPaths } from './shown-path.js';
import { isPrivateRecord, privateSearchFilter } from '../private-records.js';
import { resolveRealSync } from '../path-containment.js';
import { additionalDirectoriesOf, readOnlyDirectoriesOf } from '../file-tool-support/tool-scope.js';
import type { KernelApi } from '../../types/plugin.js';
import type { OutputLimits, SearchPolicy } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import type { JsonSchema, Tool, ToolContext } from '../../types/tools.js';

/** Where a search starts, and for whom: the session's own saved outputs are searched only when named. */
export interface SearchStart {
  /** The real path the search starts at (the named folder or file). */
  start: string;
  projectRoot: string;
  sessionId?: string;
}

export interface SearchToolServices {
  limits: OutputLimits;
  /** Without `search`: every private record is left out. */
  searchPolicy: (search?: SearchStart) => SearchPolicy | undefined;
  additionalDirectories: (ctx: ToolContext) => readonly string[];
}

/** The rules' hidden files plus MewCode's private records, which no search lists or reads (sdk/private-records.ts). */
function withPrivateRecords(rules: SearchPolicy | undefined, search: SearchStart | undefined): SearchPolicy {
  const records = search === undefined ? isPrivateRecord : privateSearchFilter({ start: search.start, projectRoots: projectRoots(search.projectRoot), ...(search.sessionId !== undefined ? { sessionId: search.sessionId } : {}) });
  return {
    hiddenFiles: (toolName) => {
      const ruled = rules?.hiddenFiles(toolName);
      return ruled === undefined ? records : (file) => records(file) || ruled(file);
    },
  };
}

/** The project root as given and as resolved (the search's paths are real ones). */
function projectRoots(root: string): string[] {
  try {
    return [root, resolveRealSync(root)];
  } catch {
    return [root];
  }
}

export function searchToolBinding(
  definition: { name: string; description: string; inputSchema: JsonSchema; validateInput?: Tool['validateInput'] },
  load: (services: SearchToolServices) => Promise<Tool>,
): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.Tool)
      .toDynamicValue((context) => {
        const kernel = context.get<KernelApi>(TOKENS.Kernel);
        const additional = additionalDirectoriesOf(kernel);
        const readOnly = readOnlyDirectoriesOf(kernel);
        const services: SearchToolServices = {
          additionalDirectories: (ctx) => [...additional(), ...readOnly(ctx.session)],
          limits: context.get<OutputLimits>(TOKENS.OutputLimits),
          searchPolicy: (search) => withPrivateRecords(kernel.container.isBound(TOKENS.SearchPolicy) ? kernel.container.get<SearchPolicy>(TOKENS.SearchPolicy) : undefined, search),
        };
        // A path copied from glob's or grep's output (`\xNN` escapes) is decoded before any check sees it (shown-path.ts).
        const validateInput = withShownPaths(definition.validateInput, ['path'], () => ({ projectRoot: kernel.projectRoot, homeDir: kernel.homeDir }));
        return lazyTool({ ...definition, readOnly: true, validateInput }, () => load(services));
      })
      .inSingletonScope();
  });
}
