/**
 * File times come from a coarse clock (a few ms behind the wall clock; whole seconds on some file
 * systems): a change made in the same tick as the time last seen can leave that time as it was.
 * What is kept while a file's or directory's times stay the same (the refs' listing, git-refs.ts;
 * the walk's listings, walk-cache.ts) is kept only for times at least this much older than now.
 */
export const TICK_MS = 2_500;
