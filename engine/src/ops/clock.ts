/**
 * The time the service stamps on what it writes. Whole seconds, as Eve writes them: RFC 1123
 * renders no fractions, so a date the API returned finds its item again in `where`.
 */

/** Now, truncated to the whole second. */
export function stampNow(at: number = Date.now()): Date {
  return new Date(Math.floor(at / 1000) * 1000);
}
