/**
 * `$regex` in `where` must not be able to stall the server. JavaScript's backtracking engine can
 * take exponential time on patterns with nested quantifiers (`(a+)+$`), so a pattern is refused
 * when it is long, uses back-references or lookarounds, or quantifies a group that itself contains
 * a quantifier or an alternation (star height > 1, the classic ReDoS shape).
 */
export const MAX_REGEX_LENGTH = 256;
const ALLOWED_OPTIONS = /^[imsx]*$/;

/** Returns why the pattern is refused, or null when it is safe to run. */
export function unsafeRegexReason(pattern: string, options = ''): string | null {
  if (pattern.length > MAX_REGEX_LENGTH) return `$regex is longer than ${MAX_REGEX_LENGTH} characters`;
  if (!ALLOWED_OPTIONS.test(options)) return '$options accepts only the flags i, m, s and x';
  if (/\\[1-9]|\\k</.test(pattern)) return '$regex back-references are not allowed';
  if (/\(\?<?[=!]/.test(pattern)) return '$regex lookarounds are not allowed';
  try {
    new RegExp(pattern, options.replace('x', ''));
  } catch {
    return '$regex is not a valid regular expression';
  }
  return hasNestedQuantifier(pattern) ? '$regex has a nested quantifier (like (a+)+) that could run for ever' : null;
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
