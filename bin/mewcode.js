#!/usr/bin/env node
// The installed executable: the bundled CLI lives in dist/ (built by `npm install` via `prepare`).
import('../dist/mewcode.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/mewcode.js')) {
    process.stderr.write('mewcode: the bundle is missing; run `npm run build` in the MewCode checkout first\n');
    process.exit(2);
  }
  throw error;
});
