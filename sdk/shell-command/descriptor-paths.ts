/**
 * Paths through which a program reads an inherited descriptor rather than a file: wrappers,
 * tool runners and hidden runners all ask this, so it sits apart from each of them.
 */

/** A path through which a program reads its standard input (or another inherited descriptor). */
export function isDescriptorPath(path: string): boolean {
  return path === '-' || /^\/dev\/(?:stdin|tty|fd\/\d+)$/.test(path) || /^\/proc\/[^/]+\/fd\/\d+$/.test(path);
}

/** The ones that are the standard input itself (a heredoc or pipe given to the command supplies them). */
export function isStdinPath(path: string): boolean {
  return path === '-' || path === '/dev/stdin' || /^\/(?:dev|proc\/(?:self|thread-self))\/fd\/0$/.test(path);
}
