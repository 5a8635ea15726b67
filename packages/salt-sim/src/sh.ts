/**
 * The simulated minion's `/bin/sh` (dash on Debian/Ubuntu, POSIX "Shell Command Language"), as
 * far as the commands sent to it need: words with single quotes (all literal), double quotes and
 * backslashes; `;`, `&&`, `||`; `if ... then ... [elif ...] [else ...] fi`; the redirections
 * `>FILE`, `2>FILE`, `2>&1`, `>&2` (only `/dev/null` as a file). Anything else (pipes, `$`
 * expansions, backquotes, subshells, background jobs) is {@link ShUnsupported}: the simulator
 * would rather refuse a command than answer it as a real shell might not.
 */

/** A construct this shell does not run. */
export class ShUnsupported extends Error {}

type Token = { readonly op: string } | { readonly word: string };

const OPERATORS = ['&&', '||', '2>&1', '>&2', '2>', ';', '|', '&', '(', ')', '>', '<'] as const;
const UNSUPPORTED_OPS = new Set(['|', '&', '(', ')', '<']);

/** Reads one quoted or unquoted word starting at `i`; returns it and where it ends. */
function readWord(text: string, start: number): { word: string; end: number } {
  let word = '';
  let i = start;
  while (i < text.length && !/[\s;&|<>()]/.test(text[i] ?? '')) {
    const c = text[i] ?? '';
    if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) throw new ShUnsupported('Syntax error: Unterminated quoted string');
      word += text.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      i += 1;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '$' || text[i] === '`') throw new ShUnsupported('expansions are not simulated');
        if (text[i] === '\\' && /["\\$`\n]/.test(text[i + 1] ?? '')) i += 1;
        word += text[i] ?? '';
        i += 1;
      }
      if (i >= text.length) throw new ShUnsupported('Syntax error: Unterminated quoted string');
      i += 1;
    } else if (c === '\\') {
      word += text[i + 1] ?? '';
      i += 2;
    } else if (c === '$' || c === '`' || c === '*' || c === '?' || c === '~') {
      throw new ShUnsupported('expansions are not simulated');
    } else {
      word += c;
      i += 1;
    }
  }
  return { word, end: i };
}

/** Splits a command line into words and operators (a newline is a `;`). */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    // Tokens start here, so a `2` followed by `>` is a file descriptor, as in the shell grammar.
    const op = c === '\n' ? ';' : OPERATORS.find((o) => text.startsWith(o, i));
    if (op !== undefined) {
      if (UNSUPPORTED_OPS.has(op)) throw new ShUnsupported(`"${op}" is not simulated`);
      tokens.push({ op });
      i += c === '\n' ? 1 : op.length;
    } else if (/\s/.test(c)) i += 1;
    else if (c === '#') while (i < text.length && text[i] !== '\n') i += 1;
    else {
      const { word, end } = readWord(text, i);
      tokens.push({ word });
      i = end;
    }
  }
  return tokens;
}

/** Where a command's output goes. */
export interface Redirects {
  stdout: 'stdout' | 'stderr' | 'null';
  stderr: 'stdout' | 'stderr' | 'null';
}

/** The parsed script. */
export type Node =
  | { readonly kind: 'simple'; readonly argv: readonly string[]; readonly redirects: Redirects }
  | {
      readonly kind: 'if';
      readonly branches: ReadonlyArray<{ readonly test: Node; readonly body: Node }>;
      readonly otherwise: Node | null;
    }
  | {
      readonly kind: 'list';
      readonly items: ReadonlyArray<{ readonly node: Node; readonly then: ';' | '&&' | '||' }>;
    };

const KEYWORDS = new Set(['if', 'then', 'elif', 'else', 'fi']);

/** A recursive-descent parser over the tokens. */
class Parser {
  private at = 0;
  constructor(private readonly tokens: readonly Token[]) {}

  parse(): Node {
    const node = this.list(new Set());
    if (this.at < this.tokens.length)
      throw new ShUnsupported(`Syntax error: unexpected ${JSON.stringify(this.tokens[this.at])}`);
    return node;
  }

  private peekWord(): string | undefined {
    const t = this.tokens[this.at];
    return t !== undefined && 'word' in t ? t.word : undefined;
  }

  private peekOp(): string | undefined {
    const t = this.tokens[this.at];
    return t !== undefined && 'op' in t ? t.op : undefined;
  }

  private expect(word: string): void {
    if (this.peekWord() !== word) throw new ShUnsupported(`Syntax error: "${word}" expected`);
    this.at += 1;
  }

  /** Commands joined by ; && ||, up to one of the `stop` keywords (or the end). */
  private list(stop: ReadonlySet<string>): Node {
    const items: Array<{ node: Node; then: ';' | '&&' | '||' }> = [];
    while (this.at < this.tokens.length && !stop.has(this.peekWord() ?? '')) {
      const node = this.command();
      const op = this.peekOp();
      if (op === ';' || op === '&&' || op === '||') this.at += 1;
      items.push({ node, then: op === '&&' || op === '||' ? op : ';' });
    }
    if (items.length === 0) throw new ShUnsupported('Syntax error: a command is missing');
    return { kind: 'list', items };
  }

  private command(): Node {
    if (this.peekWord() === 'if') return this.ifClause();
    const argv: string[] = [];
    const redirects: Redirects = { stdout: 'stdout', stderr: 'stderr' };
    while (this.at < this.tokens.length) {
      const t = this.tokens[this.at] as Token;
      if ('word' in t) {
        if (argv.length === 0 && KEYWORDS.has(t.word))
          throw new ShUnsupported(`Syntax error: "${t.word}" unexpected`);
        argv.push(t.word);
        this.at += 1;
      } else if (t.op === '2>&1') {
        this.at += 1;
        redirects.stderr = redirects.stdout;
      } else if (t.op === '>&2') {
        this.at += 1;
        redirects.stdout = redirects.stderr;
      } else if (t.op === '>' || t.op === '2>') {
        this.at += 1;
        const target = this.peekWord();
        if (target !== '/dev/null')
          throw new ShUnsupported('only /dev/null is simulated as a redirection target');
        this.at += 1;
        if (t.op === '>') redirects.stdout = 'null';
        else redirects.stderr = 'null';
      } else break;
    }
    if (argv.length === 0) throw new ShUnsupported('Syntax error: a command is missing');
    return { kind: 'simple', argv, redirects };
  }

  private ifClause(): Node {
    const branches: Array<{ test: Node; body: Node }> = [];
    let otherwise: Node | null = null;
    this.expect('if');
    for (;;) {
      const test = this.list(new Set(['then']));
      this.expect('then');
      const body = this.list(new Set(['elif', 'else', 'fi']));
      branches.push({ test, body });
      if (this.peekWord() !== 'elif') break;
      this.at += 1;
    }
    if (this.peekWord() === 'else') {
      this.at += 1;
      otherwise = this.list(new Set(['fi']));
    }
    this.expect('fi');
    return { kind: 'if', branches, otherwise };
  }
}

/** Parses a command line; throws {@link ShUnsupported} for what this shell does not run. */
export function parseSh(text: string): Node {
  return new Parser(tokenize(text)).parse();
}

/** Whether a line uses shell syntax (anything beyond one plain command with plain words). */
export function usesShellSyntax(node: Node): boolean {
  if (node.kind !== 'list' || node.items.length !== 1) return true;
  const only = node.items[0]?.node;
  return only?.kind !== 'simple' || only.redirects.stdout !== 'stdout' || only.redirects.stderr !== 'stderr';
}
