/**
 * A file tool's permission target, and the check that its write lands where that target was
 * judged. The permission layers judge the path and where it led (`real`) when the call was
 * checked; the tool resolves the path again when it runs. A link on the way swapped in between
 * (a command running beside the call: a background sub-agent's bash flipping `d` between a folder
 * and a link to `.git`) would otherwise carry a write judged as `d/config` into `.git/config`.
 * From the tool's own resolution on, its descriptors keep it there (contained-fs.ts).
 */
import type { PermissionTarget, ToolContext, ToolInput } from '../../types/tools.js';
import { filePathOf } from './file-fields.js';
import { resolveToolPath } from './tool-path.js';

/** Where the project and the home are, for resolving a path before the call runs (the kernel's). */
export type ToolRoots = () => { projectRoot: string; homeDir: string };

/** The path the input names and, when the roots are known, where it leads now. */
export async function judgedPathTarget(input: ToolInput, roots: ToolRoots | undefined): Promise<PermissionTarget> {
  const filePath = filePathOf(input) ?? '';
  if (filePath === '' || roots === undefined) return { kind: 'path', path: filePath };
  const { projectRoot, homeDir } = roots();
  return { kind: 'path', path: filePath, real: (await resolveToolPath(filePath, projectRoot, homeDir)).real };
}

/** Whether the call's path now leads elsewhere than where the permission layers judged it to (then nothing may be written). */
export function ledElsewhere(context: ToolContext, real: string): boolean {
  const judged = context.permissionTarget;
  return judged?.kind === 'path' && judged.real !== undefined && judged.real !== real;
}
