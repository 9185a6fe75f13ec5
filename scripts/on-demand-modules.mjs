// The program's modules in a few chunk files instead of one per combination of on-demand modules.
//
// esbuild splits shared code by the SET of entry points that reach each module, and every
// `import()` target counts as an entry point. The program (bin/main.ts and what it imports) shares
// small pieces with dozens of modules it loads on demand (each tool's implementation, the
// subcommands, the MCP and hooks runtimes, the provider SDKs…), so it came out as ≈ 59 files, and
// Node's ES module loader pays for each file it resolves, reads, compiles and links.
//
// Those on-demand modules only ever run inside the program: it is what imports them. This build
// plugin states that dependency: each of them also imports bin/main.ts (an import of an already
// loaded module: nothing runs twice, nothing more is read). Every program module is then reached
// by the same entry points and esbuild puts the program in a handful of chunks. What stays
// separate is what runs WITHOUT the program: `mewcode-shell-parser`'s process and whatever it
// loads, the public library (`sdk/`, also used outside the CLI), third-party packages, and the
// command-line commands named below, which must stay light.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const PROGRAM = 'bin/main.ts';
/** On-demand modules that run before or without the program: `mewcode plugin …` loads no plugin code. */
const RUN_WITHOUT_PROGRAM = new Set(['bin/plugin-command.ts']);
/** Sources that may gain the import: the program's own code (not the public sdk/, not node_modules). */
const PROGRAM_SOURCES = /^(plugins|kernel|config|bin)\//;

/**
 * `options`/`entryPoints`: the build's own (its plugins included), so the module graph seen here
 * is the one the real build bundles. `separateEntries`: entry points that start their own process.
 */
export async function onDemandModulesInsideProgram(options, entryPoints, separateEntries) {
  const probe = await build({ ...options, entryPoints, write: false, metafile: true, logLevel: 'silent' });
  const inputs = probe.metafile.inputs;
  const program = reachable(inputs, [PROGRAM], false);
  const elsewhere = reachable(inputs, separateEntries.map((name) => entryPoints[name]), true);
  // What the light commands load stays light too: their own modules, and the bin/ modules they load
  // on demand with what those import (`mewcode plugin install` uses config/claude-plugins/, which a
  // run loads on demand). A module of config/ or plugins/ they load on demand (the Claude Code
  // plugin reader, for `plugin list` when such plugins are installed) brings the program with it.
  const light = reachable(inputs, [...RUN_WITHOUT_PROGRAM], (target) => target.startsWith('bin/'));
  const dynamicImports = Object.keys(inputs).flatMap((file) => inputs[file].imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => ({ file, target: i.path })));
  const targets = new Set();
  for (const { target } of dynamicImports) {
    if (program.has(target) || elsewhere.has(target) || light.has(target) || !PROGRAM_SOURCES.test(target)) continue;
    targets.add(path.resolve(target));
  }
  if (targets.size === 0) throw new Error('on-demand-modules: no module of the program is imported on demand; the build layout changed, so this plugin needs a look');
  const programFile = path.resolve(PROGRAM);
  return {
    name: 'on-demand-modules-inside-program',
    setup(b) {
      b.onLoad({ filter: /\.(ts|tsx)$/ }, (args) => {
        if (!targets.has(args.path)) return undefined;
        // Appended, so the source map's lines stay those of the file.
        return { contents: `${readFileSync(args.path, 'utf8')}\nimport ${JSON.stringify(programFile)};\n`, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

/** The files reachable from `roots` by static imports (and by `import()` of the targets `dynamicToo` accepts). */
function reachable(inputs, roots, dynamicToo) {
  const followDynamic = typeof dynamicToo === 'function' ? dynamicToo : () => dynamicToo;
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file) || !inputs[file]) return;
    seen.add(file);
    for (const imported of inputs[file].imports) {
      if (imported.external) continue;
      if (imported.kind === 'import-statement' || imported.kind === 'require-call' || (imported.kind === 'dynamic-import' && followDynamic(imported.path))) visit(imported.path);
    }
  };
  for (const root of roots) visit(root);
  return seen;
}
