/**
 * Where Python run as `python -m <module>` from the work tree's top (git runs hooks, filters and
 * drivers there) looks for the module first: `-m` puts the current folder ahead of the installed
 * packages, so `<top>.py` or the package `<top>/` there is imported instead (relative paths).
 */
export function pythonModulePaths(module: string): string[] {
  const top = /^[A-Za-z_]\w*/.exec(module)?.[0];
  return top === undefined ? [] : [`${top}.py`, top];
}
