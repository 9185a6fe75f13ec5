// The reference for the MCP bench: spawn N copies of a stdio server at once and initialise each with
// the SDK's client (initialize + tools/list), as a bare Node process would. Prints the time from just
// before the first spawn to the last answer: the servers' own start-up, without this process's.
//
//   node scripts/bench/mcp-init-driver.mjs <count> <command> [args…]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [countText, command, ...args] = process.argv.slice(2);
const count = Number(countText);
const started = performance.now();
const clients = await Promise.all(
  Array.from({ length: count }, async () => {
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StdioClientTransport({ command, args, env: process.env, stderr: 'ignore' }));
    await client.listTools();
    return client;
  }),
);
const slowestMs = performance.now() - started;
await Promise.all(clients.map((client) => client.close()));
process.stdout.write(JSON.stringify({ slowestMs }));
