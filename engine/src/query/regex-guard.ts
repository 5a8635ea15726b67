/**
 * `$regex` in `where`. Every pattern runs on the linear-time engine of pattern.ts, which refuses
 * what RE2 cannot run (back-references, look-around), bad flags and overlong patterns.
 *
 * One more shape is refused here: a quantified group that itself contains a quantifier or an
 * alternation (star height > 1, `(a+)+$`). RE2 runs it in linear time, but on the MongoDB store the
 * *server* evaluates `$regex` with its own backtracking engine (PCRE), where that shape is
 * exponential; refusing it keeps both stores accepting the same filters.
 */
import { patternError } from './pattern';

/** Returns why the pattern is refused as a `$regex`, or null when it is safe to run. */
export function unsafeRegexReason(pattern: string, options = ''): string | null {
  const why = patternError(pattern, options);
  if (why !== null) return why;
  return hasNestedQuantifier(pattern)
    ? "it has a nested quantifier (like (a+)+), which MongoDB's backtracking engine could run for ever"
    : null;
}

/** Scans groups: a quantified group containing a quantifier or `|` is refused. */
function hasNestedQuantifier(pattern: string): boolean {
  const stack: { risky: boolean }[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') stack.push({ risky: false });
    else if (c === ')') {
      const group = stack.pop();
      const next = pattern[i + 1];
      const quantified = next === '*' || next === '+' || next === '?' || next === '{';
      if (group?.risky && quantified && next !== '?') return true;
      if (group?.risky || quantified) markParent(stack);
    } else if (c === '*' || c === '+' || c === '{' || c === '|') markParent(stack);
  }
  return false;
}

function markParent(stack: { risky: boolean }[]): void {
  const top = stack[stack.length - 1];
  if (top) top.risky = true;
}
