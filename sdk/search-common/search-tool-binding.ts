/**
 * How glob and grep are bound: the definition is known at boot, the implementation is imported
 * on the first call (lazyTool), and it reads the permission rules' SearchPolicy when bound, and
 * the directories besides the project the sandbox lets a read-only tool into (additional
 * directories, an active skill's folder), so a search reaches exactly what read_file reaches;
 * MewCode's session records are left out of every search, whatever the rules.
 */
import { ContainerModule } from 'inversify';
import { lazyTool } from '../lazy-tool.js';
import { withShownPaths } from './shown-path.js';
import { isPrivateRecord } from '../private-records.js';
import { additionalDirectoriesOf, readOnlyDirectoriesOf } from '../file-tool-support/tool-scope.js';
import type { KernelApi } from '../../types/plugin.js';
import type { OutputLimits, SearchPolicy } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import type { JsonSchema, Tool, ToolContext } from '../../types/tools.js';

export interface SearchToolServices {
  limits: OutputLimits;
  searchPolicy: () => SearchPolicy | undefined;
  additionalDirectories: (ctx: ToolContext) => readonly string[];
}

/** The rules' hidden files plus MewCode's session records, which no search lists or reads (sdk/private-records.ts). */
function withPrivateRecords(rules: SearchPolicy | undefined): SearchPolicy {
  return {
    hiddenFiles: (toolName) => {
      const ruled = rules?.hiddenFiles(toolName);
      return ruled === undefined ? isPrivateRecord : (file) => isPrivateRecord(file) || ruled(file);
    },
  };
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
          searchPolicy: () => withPrivateRecords(kernel.container.isBound(TOKENS.SearchPolicy) ? kernel.container.get<SearchPolicy>(TOKENS.SearchPolicy) : undefined),
        };
        // A path copied from glob's or grep's output (`\xNN` escapes) is decoded before any check sees it (shown-path.ts).
        const validateInput = withShownPaths(definition.validateInput, ['path'], () => ({ projectRoot: kernel.projectRoot, homeDir: kernel.homeDir }));
        return lazyTool({ ...definition, readOnly: true, validateInput }, () => load(services));
      })
      .inSingletonScope();
  });
}
