// The child side of the resume bench: the built package with the default plugins, then the saved
// session loaded through TOKENS.SessionStore and made the main session (what --continue does
// before its first request). Prints one JSON line of timings and the peak RSS.
import { Kernel, MemoryReporter, TOKENS, defaultPlugins } from '../../dist/index.js';

const id = process.argv[2];
const kernel = await Kernel.create({ plugins: defaultPlugins, projectRoot: process.cwd(), homeDir: process.env.HOME, env: process.env, reporter: new MemoryReporter() });
const started = performance.now();
const loaded = await kernel.container.get(TOKENS.SessionStore).load(id);
const read = performance.now();
const session = await kernel.resumeSession(loaded);
const done = performance.now();
process.stdout.write(`${JSON.stringify({ loadMs: read - started, resumeMs: done - read, totalMs: done - started, messages: session.conversation.messages.length, skipped: loaded.skippedLines, rssKiB: process.resourceUsage().maxRSS })}\n`);
await kernel.shutdown();
