/**
 * Everything a call's check needs and start-up does not, as one module so the build makes it one
 * on-demand chunk: loaded at the first check that needs it (permission-rules.ts loadCallChecks),
 * or while the first request waits for the model (the plugin's warm). Settings, rule syntax and
 * the path decision stay in the program: bad rules are reported at start, and glob, grep and the
 * sandbox ask about paths synchronously. An "allow always" answer is saved from here too.
 */
export { decideCommand } from './command-decision.js';
export { checkCommandReads } from './command-read-check.js';
export { checkProtectedPaths } from './protection.js';
export { appendAllowRule, removeAllowRule } from './persist.js';
