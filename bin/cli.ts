/**
 * The `mewcode` entry. `--version` and `--help` answer before any plugin code is loaded; the
 * rest of MewCode is a separate chunk imported only for a real run. `audit verify` loads only
 * its own small module: it must work even when the kernel or a plugin cannot load. `doctor` loads
 * its own module, which boots the kernel itself.
 */
import { setFlagsFromString } from 'node:v8';
import { parseCommandLine } from './cli-args.js';
import { runSubcommand } from './subcommands.js';

async function cli(): Promise<number> {
  const command = parseCommandLine(process.argv.slice(2), process.cwd());
  if (command.kind !== 'run') return runSubcommand(command);
  // fetch's HTTP parser is WebAssembly; V8 recompiles it with its optimising tier in the
  // background, which costs ≈30 MiB and keeps the process alive ≈100 ms after the answer.
  // The baseline tier is ample for an API client. scripts/code-cache.cjs sets the same flag.
  setFlagsFromString('--liftoff-only');
  const { main } = await import('./main.js');
  return main(command.options);
}

cli().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mewcode: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
