/** For plugins: the helper lives in types/ because the kernel uses it too and imports nothing from sdk/. */
export { builtinOnFirstUse, nodeCrypto } from '../types/lazy-builtin.js';
