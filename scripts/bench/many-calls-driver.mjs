// The child side of the many-calls bench: the built package (`mewcode`: Kernel, defaultPlugins,
// the real tools) in one session whose single prompt takes every scripted turn. After each tool
// call it samples the process's RSS; it prints one JSON line with the samples at the requested
// call counts and the run's end. Provider variables come from the environment, as for the CLI.
import { Kernel, MemoryReporter, defaultPlugins, loadConfig } from '../../dist/index.js';

const marks = process.argv.slice(2).map(Number);
const projectRoot = process.cwd();
const config = await loadConfig({ cwd: projectRoot, homeDir: process.env.HOME });
const kernel = await Kernel.create({ plugins: defaultPlugins, config, projectRoot, homeDir: process.env.HOME, env: process.env, reporter: new MemoryReporter() });
await kernel.startSession();
const rss = {};
let calls = 0;
let done;
for await (const event of kernel.session.run({ prompt: 'Survey the project with your tools until told to stop.', mode: 'bypassPermissions' })) {
  if (event.type === 'tool_end') {
    calls++;
    if (marks.includes(calls)) rss[calls] = process.memoryUsage().rss;
  }
  if (event.type === 'done') done = event;
}
await kernel.shutdown();
process.stdout.write(`${JSON.stringify({ reason: done?.reason, iterations: done?.iterations, calls, rss })}\n`);
