/** Configuration as plugins see it: merged layers with source locations for precise errors (K2). */

export type ConfigPath = readonly (string | number)[];

export interface ConfigIssue {
  path: ConfigPath;
  message: string;
}

export type ConfigParseResult<T> = { ok: true; value: T } | { ok: false; issues: ConfigIssue[] };

/** A plugin's own configuration section; the plugin validates it (kernel helper: `zodSection`). */
export interface ConfigSection<T = unknown> {
  key: string;
  parse(raw: unknown): ConfigParseResult<T>;
}

export type ConfigLayerName = 'user' | 'project' | 'local';

export interface ConfigLayerInfo {
  layer: ConfigLayerName;
  file: string;
  loaded: boolean;
  error?: string;
  /** A file that could not be used whose text names `plugins:` at this line: the run stops (a required plugin must not be lost with it). */
  pluginsLine?: number;
}

/** One file's own value of a top-level section, before the layers are merged. */
export interface FileSection {
  layer: ConfigLayerName;
  file: string;
  /** `file:line:col` of the key in that file. */
  at: string;
  /** That file's own value. */
  value: unknown;
}

/** A section merged from some of the files only (the same merge rules), with where each value is. */
export interface PartialSection {
  value: unknown;
  locate(path: ConfigPath): string | undefined;
}

export interface ResolvedConfig {
  readonly layers: readonly ConfigLayerInfo[];
  /** Merged raw value of a top-level section (merge rules per section in docs/kernel.md, "Configuration"). */
  section(key: string): unknown;
  /** "file:line:col" of the value that won the merge at `path`, or undefined if nowhere. */
  locate(path: ConfigPath): string | undefined;
  /** Problems found while loading (unparseable file, bad key), already formatted. */
  readonly warnings: readonly string[];
  /**
   * Every top-level key of each loaded file, with its file:line:col, so the kernel can name the
   * ones no section reads (a misspelt `max_turn:`). Absent in a configuration built by hand.
   */
  readonly fileKeys?: readonly { key: string; at: string }[];
  /**
   * The files that set the top-level section `key`, lowest precedence first (what workspace trust
   * left out not included). The kernel reads a configured plugin's section only from the files
   * strong enough for it (kernel/plugin-section-sources.ts); it does not hand these two to
   * plugins. Absent in a configuration built by hand.
   */
  sectionFiles?(key: string): readonly FileSection[];
  /** The section `key` merged from only the files `keep` accepts. Absent in a configuration built by hand. */
  sectionFrom?(key: string, keep: (file: FileSection) => boolean): PartialSection;
}
