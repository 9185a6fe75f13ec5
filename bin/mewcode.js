#!/usr/bin/env node
// The installed executable: the bundled CLI lives in dist/ (built by `npm run build`).
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

// Stack traces name the TypeScript sources (dist/*.js.map) exactly when MewCode prints stacks:
// `--debug`, or `plugins` or `all` in MEWCODE_DEBUG (the same rule as kernel/plugin-debug.ts, which
// this file cannot import: it runs before the bundle loads, and maps only apply to code loaded
// after they are on). A plugin author then reads `plugins/<name>/index.ts:12`, not a line of the
// bundle. Off otherwise (MEWCODE_DEBUG=sdk included): mapping costs at every error, and such a run
// shows no stacks.
if (process.argv.slice(2).includes('--debug') || (process.env.MEWCODE_DEBUG ?? '').split(/[\s,]+/).some((word) => word === 'plugins' || word === 'all')) {
  process.setSourceMapsEnabled(true);
}

// Node 22.1+ keeps the compiled code of the bundle's modules on disk, once per machine and Node
// version, and checks it against each file's content. Node 20 has no such cache: it compiles
// from source. NODE_COMPILE_CACHE, when set, chooses the directory (or NODE_DISABLE_COMPILE_CACHE
// turns it off), as for any Node program.
if (typeof module.enableCompileCache === 'function' && !process.env.NODE_DISABLE_COMPILE_CACHE) {
  try {
    module.enableCompileCache(process.env.NODE_COMPILE_CACHE || path.join(userCacheDirectory(), 'mewcode', 'compile-cache'));
  } catch {
    // an unwritable cache directory only costs the compile
  }
}

import('../dist/mewcode.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/mewcode.js')) {
    process.stderr.write('mewcode: the bundle is missing; run `npm run build` in the MewCode checkout first\n');
    process.exit(2);
  }
  throw error;
});

/** The platform's per-user cache directory (XDG on Linux and the BSDs). */
function userCacheDirectory() {
  if (process.platform === 'win32') return process.env.LOCALAPPDATA || path.join(os.homedir(), 'AppData', 'Local');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Caches');
  return process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
}
