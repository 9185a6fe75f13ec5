/**
 * The sdk's option reader (sdk/shell-command/getopt.ts) reads words as the programs of its tables
 * read them: git's parse-options negations, tree's clusters, chains of tables (git blame's own
 * options, then the revision options), git's own exact words with an optional `=value`, and
 * problems that name the word they are in. The wrapper tables (wrapper-options.test.ts), the
 * read-only command tables (tool-bash/read-only-command.test.ts) and the multiplexers' global
 * options (permission-rules/global-options.test.ts) are tested through their callers.
 */
import { readOptions, type OptionSyntax } from '../../../sdk/shell-command/getopt.js';

const read = (line: string, syntax: OptionSyntax | readonly OptionSyntax[]) => {
  const result = readOptions(line.split(' ').map((value) => ({ value })), 0, syntax);
  return {
    options: result.options.map((o) => (o.value ? `${o.name}=${o.value.value}` : o.name)),
    operands: result.operands,
    end: result.end,
    problems: result.problems,
  };
};

describe("negation: git's parse-options `--no-NAME`", () => {
  const GREP: OptionSyntax = { short: 'n', long: 'textconv open-files-in-pager:: max-depth:', negation: true, permute: true };

  test('`--no-NAME` of a known long option is the option no-NAME, taking no value', () => {
    expect(read('--no-textconv foo', GREP)).toMatchObject({ options: ['no-textconv'], operands: [1], problems: [] });
  });

  test('a prefix of the negated name stands for it where prefixes do', () => {
    expect(read('--no-textc foo', GREP)).toMatchObject({ options: ['no-textconv'], problems: [] });
    expect(read('--no-max foo', GREP)).toMatchObject({ options: ['no-max-depth'], problems: [] });
  });

  test('a value after `=` or an unknown NAME is a problem', () => {
    expect(read('--no-textconv=x foo', GREP).problems).toEqual([{ at: 0, text: '--no-textconv takes no value' }]);
    expect(read('--no-frob foo', GREP).problems).toEqual([{ at: 0, text: '--no-frob is not an option the analysis knows' }]);
  });

  test('without `negation`, `--no-NAME` is not known', () => {
    expect(read('--no-textconv foo', { ...GREP, negation: false }).problems).toHaveLength(1);
  });
});

describe("clusterTakesNextWords: tree's own loop", () => {
  const TREE: OptionSyntax = { short: 'P:o:L:ad', clusterTakesNextWords: true, permute: true };

  test('each valued letter of a cluster takes the next word, and the cluster goes on', () => {
    expect(read('-Po x y .', TREE)).toMatchObject({ options: ['P=x', 'o=y'], operands: [3], problems: [] });
    expect(read('-aL 2 .', TREE)).toMatchObject({ options: ['a', 'L=2'], operands: [2] });
  });

  test('a missing value is a problem', () => {
    expect(read('-Po x', TREE).problems).toEqual([{ at: 0, text: '-o is missing its value' }]);
  });

  test('getopt instead takes the rest of the word', () => {
    expect(read('-Po x y .', { ...TREE, clusterTakesNextWords: false })).toMatchObject({ options: ['P=o'], operands: [1, 2, 3] });
  });
});

describe('a chain of tables: the first that knows an option decides', () => {
  // git blame: its own options (parse-options: prefixes), then the revision options (matched whole).
  const BLAME: OptionSyntax = { short: 'L:M::w', long: 'textconv contents: reverse', negation: true, permute: true };
  const REVISIONS: OptionSyntax = { short: 'L:pn:', long: 'no-textconv output: reverse:', exactLong: true, permute: true };

  test('an option only the later table knows is read by it', () => {
    expect(read('-p -n 5 --output=x f', [BLAME, REVISIONS])).toMatchObject({ options: ['p', 'n=5', 'output=x'], operands: [4], problems: [] });
  });

  test('the first table decides a name both know', () => {
    // blame's --reverse takes no value; the revision table's would take the next word.
    expect(read('--reverse f', [BLAME, REVISIONS])).toMatchObject({ options: ['reverse'], operands: [1] });
  });

  test("each table's own rules: prefixes in the first, whole names in the later one", () => {
    expect(read('--cont x f', [BLAME, REVISIONS])).toMatchObject({ options: ['contents=x'], problems: [] });
    expect(read('--out=x f', [BLAME, REVISIONS]).problems).toEqual([{ at: 0, text: '--out is not an option the analysis knows' }]);
  });

  test('a negation comes after every direct name (`--no-textconv` is the revision option)', () => {
    expect(read('--no-textconv f', [BLAME, REVISIONS])).toMatchObject({ options: ['no-textconv'], problems: [] });
    expect(read('--no-contents f', [BLAME, REVISIONS])).toMatchObject({ options: ['no-contents'], problems: [] });
  });

  test('one table alone does not know the other one\'s options', () => {
    expect(read('-p f', BLAME).problems).toEqual([{ at: 0, text: '-p is not an option the analysis knows' }]);
  });
});

describe("exact words: git's own options", () => {
  const GIT: OptionSyntax = { kind: 'exact', long: '-C: --git-dir: --exec-path:: -p' };

  test('an optionally valued long word takes its value only after `=`', () => {
    expect(read('--exec-path=/x push', GIT)).toMatchObject({ options: ['--exec-path=/x'], end: 1, problems: [] });
    expect(read('--exec-path push', GIT)).toMatchObject({ options: ['--exec-path'], end: 1, problems: [] });
  });

  test('a valued long word: `=value` or the next word', () => {
    expect(read('--git-dir=.git push', GIT)).toMatchObject({ options: ['--git-dir=.git'], end: 1 });
    expect(read('--git-dir .git push', GIT)).toMatchObject({ options: ['--git-dir=.git'], end: 2 });
  });

  test('a single-dash word is compared whole: `-C=dir` and `-Cdir` are not `-C`', () => {
    expect(read('-C=dir push', GIT).problems).toEqual([{ at: 0, text: '-C=dir is not an option the analysis knows' }]);
    expect(read('-Cdir push', GIT).problems).toEqual([{ at: 0, text: '-Cdir is not an option the analysis knows' }]);
    expect(read('-C dir push', GIT)).toMatchObject({ options: ['-C=dir'], end: 2, problems: [] });
  });

  test('a flag given a value is not known', () => {
    expect(read('-p=x push', GIT).problems).toHaveLength(1);
  });
});

describe('problems name the word they are in', () => {
  const SORT: OptionSyntax = { short: 'o:u', long: 'output: check compress-program:', permute: true };

  test.each([
    ['-u --frob in', 1, '--frob is not an option the analysis knows'],
    ['in --c', 1, '--c is an ambiguous abbreviation'],
    ['in -u -o', 2, '-o is missing its value'],
    ['in --check=x', 1, '--check takes no value'],
    ['-uq in', 0, '-q is not an option the analysis knows'],
  ])('%j', (line, at, text) => {
    expect(read(line, SORT).problems).toEqual([{ at, text }]);
  });
});
