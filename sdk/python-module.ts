/**
 * Where Python run as `python -m <module>` from the work tree's top (git runs hooks, filters and
 * drivers there) looks for the module first: `-m` puts the current folder ahead of the installed
 * packages, so `<top>.py` (or its `.pyc`) or a package `<top>/` with an `__init__.py` there is
 * imported instead, and `-m` runs the package's `__main__.py` (relative paths). Files, not the
 * folder: a project's own package of that name stays editable but for those two files. (A folder
 * without `__init__.py` is a namespace package, which an installed package of the name wins over.)
 */
export function pythonModulePaths(module: string): string[] {
  const top = /^[A-Za-z_]\w*/.exec(module)?.[0];
  return top === undefined ? [] : [`${top}.py`, `${top}.pyc`, `${top}/__init__.py`, `${top}/__main__.py`];
}
