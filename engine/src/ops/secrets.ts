/**
 * Secret fields are sealed before they are stored (AES-256-GCM, key from SECRET_KEY) and opened
 * only by integrations that need the clear value (e.g. to log in to a VPN server).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SecretBox } from '../definition/define';

/** What every sealed value starts with (the format's version). */
export const SEALED_PREFIX = 'enc:v1:';
const PREFIX = SEALED_PREFIX;

/** A SecretBox keyed by any string (hashed to 32 bytes). */
export function createSecretBox(key: string): SecretBox {
  const k = createHash('sha256').update(key).digest();
  return {
    seal(plain: string): string {
      if (plain.startsWith(PREFIX)) return plain;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', k, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(sealed: string): string {
      if (!sealed.startsWith(PREFIX)) return sealed;
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', k, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/** Seals every string at the given secret paths of a (mutable, freshly built) document. */
export function sealSecrets(doc: Record<string, unknown>, paths: readonly string[], box: SecretBox): void {
  for (const path of paths) sealPath(doc, path.split('.'), box);
}

function sealPath(node: unknown, segments: string[], box: SecretBox): void {
  if (Array.isArray(node)) {
    for (const el of node) sealPath(el, segments, box);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  const [head, ...rest] = segments;
  if (head === undefined || !(head in record)) return;
  const value = record[head];
  if (rest.length > 0) sealPath(value, rest, box);
  else if (typeof value === 'string') record[head] = box.seal(value);
}
