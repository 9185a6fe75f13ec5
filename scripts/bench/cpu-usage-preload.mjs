// Preloaded (`node --import`) into a CLI child by the compare scripts' --cpu option: at exit, the
// process's own CPU time (user + system, microseconds) is written to MEWCODE_BENCH_CPU_FILE. CPU
// time is what a change costs; on a loaded machine, wall time mostly measures waiting for a core.
import { writeFileSync } from 'node:fs';

const file = process.env.MEWCODE_BENCH_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(file, JSON.stringify({ user, system }));
  });
}
