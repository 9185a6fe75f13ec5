/** A file or folder a shell segment writes (command-writes.ts, output-writers.ts), as the protected-path check judges it. */
export interface WriteTarget {
  target: string;
  /**
   * `tree`: the whole path is replaced or removed (a directory holding protected files counts);
   * `destination`: a cp/mv/ln target — a tree unless it is an existing directory (then `landing`);
   * `prefix`: the start of the names written (`split … PREFIX`, `checkout-index --prefix=`);
   * `directory`: files of names not known land below it (`tar -x -C`, `unzip -d`, `format-patch -o`);
   * `sed-script`: a sed script file (`sed -f`) whose `w` commands are the targets, read by the caller.
   */
  kind: 'file' | 'tree' | 'destination' | 'prefix' | 'directory' | 'sed-script';
  /** For cp/mv into a directory: the names that land in it. */
  landing?: string[];
  /** `git config`: git finds the repository from any subdirectory, so the target is the project's. */
  inRepository?: boolean;
  /**
   * Only a definite protected target counts (a name found in a sed script may be regular-expression
   * text: `$` in it is no expansion, so it is not asked about as a computed target).
   */
  definiteOnly?: boolean;
}
