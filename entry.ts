/**
 * The `mewcode` package entry as the bundle builds it: everything index.ts exports, each class and
 * function frozen with its prototype and statics (types/harden-exports.ts), as sdk/hardened.ts
 * does for `mewcode/sdk`. (In a module of its own: the index importing itself would be a cycle.)
 */
import * as mewcode from './index.js';
import { hardenExports } from './types/harden-exports.js';

hardenExports(mewcode);

export * from './index.js';
