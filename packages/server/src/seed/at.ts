/**
 * `list[i]` for an index the caller computed in range: with `noUncheckedIndexedAccess` the read is
 * `T | undefined`, and a RangeError (a bug in the generator) beats carrying an undefined on.
 */
export function at<T>(list: ArrayLike<T>, i: number): T {
  const item = list[i];
  if (item === undefined) throw new RangeError(`index ${i} is outside the list (length ${list.length})`);
  return item;
}
