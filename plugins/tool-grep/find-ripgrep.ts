/** Kept for imports from before the lookup moved to the shared search code (glob uses it too). */
export { findRipgrep } from '../../sdk/search-common/find-ripgrep.js';
