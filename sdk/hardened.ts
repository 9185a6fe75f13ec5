/**
 * The `mewcode/sdk` entry as the bundle builds it: everything sdk/index.ts exports, with every
 * class and function frozen with its prototype and statics (types/harden-exports.ts) as the entry
 * is evaluated, before a plugin can reach it: a plugin must not patch what the permission layers
 * match with (`LinearRegExp.prototype.test`) for every other plugin. (In a module of its own: the
 * index importing itself would be an import cycle.)
 */
import * as sdk from './index.js';
import { hardenExports } from '../types/harden-exports.js';

hardenExports(sdk);

export * from './index.js';
