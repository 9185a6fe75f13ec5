// The child side of compare-boot.mjs: imports one build's package (`<build>/dist/index.js`) and
// boots its default plugin set `count` times in a row (Kernel.create → startSession → shutdown),
// each in the same temporary project and HOME. Prints one JSON line: each boot's wall time and
// this process's CPU time over it (user + system), in milliseconds.
import { pathToFileURL } from 'node:url';

const [buildRoot, countText] = process.argv.slice(2);
const { Kernel, MemoryReporter, defaultPlugins } = await import(pathToFileURL(`${buildRoot}/dist/index.js`).href);
const count = Number.parseInt(countText ?? '10', 10);
const boots = [];
for (let i = 0; i < count; i++) {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const kernel = await Kernel.create({ plugins: defaultPlugins, projectRoot: process.cwd(), homeDir: process.env.HOME, env: process.env, reporter: new MemoryReporter() });
  await kernel.startSession();
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  await kernel.shutdown();
  boots.push({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000 });
}
process.stdout.write(`${JSON.stringify({ boots })}\n`);
