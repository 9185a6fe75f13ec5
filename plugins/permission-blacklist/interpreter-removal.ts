/**
 * Interpreters removing trees: `python3 -c "import shutil; shutil.rmtree(…)"`,
 * `perl -MFile::Path -e 'rmtree(…)'`, `ruby -e 'FileUtils.rm_rf(…)'`,
 * `node -e "fs.rmSync(…, {recursive: true})"`, `deno eval 'Deno.removeSync(…, {recursive: true})'`,
 * `Rscript -e 'unlink(…, recursive = TRUE)'`, `pwsh -c 'Remove-Item … -Recurse'`. The program
 * text comes from the shell parser (ShellSegment.inlineCode). A removal whose argument is not one plain string literal naming a
 * path inside the project is dangerous; shell commands the program runs (`os.system('rm -rf ~')`)
 * are segments of their own and get the ordinary checks.
 */
import type { Hit } from './hit.js';
import { literalInside } from './outside-targets.js';
import type { Where } from './targets.js';

/** Tree-removing calls; the capture is the start of the first argument. */
const REMOVERS: readonly { api: RegExp; needs?: RegExp }[] = [
  { api: /\b(rmtree|remove_tree|removedirs|rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rimraf(?:\.sync)?|deleteRecursively|delete_tree)\b\s*\(?\s*/g },
  // Node's fs.rm / rmSync / rmdir / rmdirSync and Deno.remove / removeSync remove a tree only with { recursive: true }.
  { api: /\b(rmSync|rmdirSync|rm|rmdir|removeSync|remove)\s*\(\s*/g, needs: /recursive/ },
  // R: unlink(x, recursive = TRUE)
  { api: /\b(unlink)\s*\(\s*/g, needs: /recursive\s*=\s*T/ },
  // PowerShell: Remove-Item -Recurse
  { api: /\b(Remove-Item)\s+/gi, needs: /-Recurse/i },
];

/** One plain string literal (no interpolation) at the start of `text`, or undefined. */
function leadingLiteral(text: string): string | undefined {
  const match = /^(?:'([^'\\$]*)'|"([^"\\$#{}]*)")\s*(?:[,)]|$)/.exec(text);
  return match ? (match[1] ?? match[2]) : undefined;
}

export function interpreterRemovingTree(interpreter: string, code: string, where: Where): Hit | undefined {
  if (!where.inside) return undefined;
  for (const { api, needs } of REMOVERS) {
    if (needs && !needs.test(code)) continue;
    for (const match of code.matchAll(api)) {
      const rest = code.slice(match.index + match[0].length);
      const literal = leadingLiteral(rest);
      // f'…' and friends do not start with a quote, so they are never plain literals here.
      if (literal !== undefined && literalInside(literal, where, where.inside, false)) continue;
      const argument = rest.slice(0, 60).split(/[)\n;]/)[0]!.trim() || '(nothing visible)';
      return { pattern: `${interpreter} removing a tree (${match[1]}) at ${argument}, which is not a literal path inside the project` };
    }
  }
  return undefined;
}
