// f. The child side of the long session: the built package (`mewcode`: Kernel, defaultPlugins)
// with the bench plugin, one session, several prompts in a row, so one session reaches 60 model
// requests (a run stops at 25 iterations, L1). Prints one JSON line: each run's end reason
// and iteration count. Provider variables come from the environment, as for the CLI.
import { Kernel, MemoryReporter, defaultPlugins, pluginApi } from '../../dist/index.js';

const prompts = Number.parseInt(process.argv[2] ?? '3', 10);
const benchTool = (await import(process.argv[3])).default(pluginApi);
const kernel = await Kernel.create({
  plugins: [...defaultPlugins, benchTool],
  projectRoot: process.cwd(),
  homeDir: process.env.HOME,
  env: process.env,
  reporter: new MemoryReporter(),
});
await kernel.startSession();
const runs = [];
for (let i = 0; i < prompts; i++) {
  let done;
  for await (const event of kernel.session.run({ prompt: `Step ${i + 1}: echo with the bench tool until told to stop.`, mode: 'bypassPermissions' })) {
    if (event.type === 'done') done = event;
  }
  runs.push({ reason: done?.reason, iterations: done?.iterations });
}
await kernel.shutdown();
process.stdout.write(`${JSON.stringify({ runs })}\n`);
