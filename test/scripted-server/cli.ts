// Executable entry of the scripted model server, for tests that run the real CLI in a child process:
//   node dist/scripted-server.js --script turns.json [--port N] [--host H] [--log requests.jsonl]
// Prints exactly one line, "scripted model server listening on <url>", then serves until SIGINT/SIGTERM.
import { appendFileSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startScriptedServer, type ScriptedServer, type ScriptedTurn } from './index.js';

const USAGE = 'usage: scripted-server --script turns.json [--port N] [--host H] [--log requests.jsonl]';

function readTurns(file: string): ScriptedTurn[] {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const turns = Array.isArray(parsed) ? parsed : (parsed as { turns?: unknown } | null)?.turns;
  if (!Array.isArray(turns)) throw new Error(`${file}: expected a JSON array of turns or {"turns": [...]}`);
  return turns as ScriptedTurn[];
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      script: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      log: { type: 'string' },
    },
    strict: true,
  });
  if (!values.script) throw new Error(`--script is required\n${USAGE}`);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${values.port}`);
  const logFile = values.log;

  // Handlers go in before the announcement line: a parent may signal as soon as it reads it.
  let server: ScriptedServer | undefined;
  const stop = () => {
    (server?.close() ?? Promise.resolve()).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  server = await startScriptedServer({
    turns: readTurns(values.script),
    port,
    host: values.host,
    // Synchronous append: the log is complete as soon as the response starts.
    onRequest: logFile ? (request) => appendFileSync(logFile, `${JSON.stringify(request)}\n`) : undefined,
  });
  process.stdout.write(`scripted model server listening on ${server.url}\n`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`scripted model server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
