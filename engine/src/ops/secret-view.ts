/**
 * What reads hand out for secret fields: masked (`********`) for every caller, or opened (the clear
 * value) for the system principal when it asks (`reveal`: an integration logging in to a VPN server).
 * Only the containers on a secret's path are copied; the stored document is never changed.
 */
import type { SecretBox } from '../definition/define';

/** The mask a secret reads back as. */
export const MASK = '********';

type Transform = (value: string) => string;

/** A copy of `doc` with `transform` applied to the string at every secret path. */
export function withSecrets<T extends Record<string, unknown>>(
  doc: T,
  paths: readonly string[],
  transform: Transform,
): T {
  if (paths.length === 0) return doc;
  let out = doc;
  for (const path of paths) out = rewriteAt(out, path.split('.'), transform) as T;
  return out;
}

function rewriteAt(node: unknown, segments: readonly string[], transform: Transform): unknown {
  if (Array.isArray(node)) return node.map((el) => rewriteAt(el, segments, transform));
  if (node === null || typeof node !== 'object' || node instanceof Date) return node;
  const [head, ...rest] = segments;
  const record = node as Record<string, unknown>;
  if (head === undefined || !(head in record)) return node;
  const value = record[head];
  if (rest.length > 0) return { ...record, [head]: rewriteAt(value, rest, transform) };
  if (value === null || value === undefined) return node;
  return { ...record, [head]: typeof value === 'string' ? transform(value) : MASK };
}

/** Masks every secret. */
export function masked<T extends Record<string, unknown>>(doc: T, paths: readonly string[]): T {
  return withSecrets(doc, paths, () => MASK);
}

/** Opens every secret (system principal, `reveal`). */
export function revealed<T extends Record<string, unknown>>(
  doc: T,
  paths: readonly string[],
  box: SecretBox,
): T {
  return withSecrets(doc, paths, (sealed) => box.open(sealed));
}
