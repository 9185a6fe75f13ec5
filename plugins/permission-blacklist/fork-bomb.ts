/**
 * Pattern 3, fork bombs: a shell function whose body starts concurrent processes (a pipeline,
 * `&`, `|&`, process substitution, coproc) and calls itself — directly or through other functions
 * defined in the same command — at least twice, so the number of processes doubles at every level.
 * Covers `:(){ :|:& };:`, renamed copies (`bomb(){ bomb|bomb& };bomb`), `f(){ f & f; }` and mutual
 * recursion (`a(){ b|b& }; b(){ a|a& }`). A recursive function with one recursive call
 * (`walk(){ …; walk "$d" | sed 's/^/  /'; }`) grows linearly and ends with its recursion: allowed.
 */
import type { ShellFunction } from '../../sdk/shell-command/index.js';

export function findForkBomb(functions: readonly ShellFunction[]): ShellFunction | undefined {
  const byName = new Map<string, ShellFunction[]>();
  for (const fn of functions) byName.set(fn.name, [...(byName.get(fn.name) ?? []), fn]);
  const reaches = (from: ShellFunction, target: string): boolean => {
    const seen = new Set<ShellFunction>();
    const stack = [from];
    while (stack.length > 0) {
      const fn = stack.pop()!;
      if (seen.has(fn)) continue;
      seen.add(fn);
      for (const call of fn.calls) {
        if (call === target) return true;
        stack.push(...(byName.get(call) ?? []));
      }
    }
    return false;
  };
  return functions.find((fn) => fn.spawns && fn.calls.filter((call) => call === fn.name || (byName.get(call) ?? []).some((g) => reaches(g, fn.name))).length >= 2);
}

/** For commands that do not parse: a function definition whose body names it twice and forks. */
export function textLooksLikeForkBomb(text: string): boolean {
  // Bounded repetitions: this runs on arbitrary text and must stay linear.
  const definition = /(?:function\s{1,16})?([^\s(){};|&<>]{1,64})\s{0,16}\(\s{0,16}\)\s{0,16}\{([^}]{0,4096})\}|function\s{1,16}([^\s(){};|&<>]{1,64})\s{0,16}\{([^}]{0,4096})\}/g;
  for (const match of text.matchAll(definition)) {
    const name = match[1] ?? match[3]!;
    const body = match[2] ?? match[4]!;
    const calls = body.split(/[\s|&;()]+/).filter((word) => word === name).length;
    if (calls >= 2 && /[|&]/.test(body)) return true;
  }
  return false;
}
