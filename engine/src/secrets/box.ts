/**
 * The box that seals secret values at rest: AES-256-GCM under a key from SECRET_KEY (hashed to 32
 * bytes), each value with its own random IV, written `enc:v1:<base64 of iv, tag, ciphertext>`.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SecretBox } from '../definition/define';

/** What every sealed value starts with (the format's version). */
export const SEALED_PREFIX = 'enc:v1:';

/** Whether a stored value is sealed (by any key). */
export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(SEALED_PREFIX);
}

/** A SecretBox keyed by any string (hashed to 32 bytes). Sealing a sealed value keeps it. */
export function createSecretBox(key: string): SecretBox {
  const k = createHash('sha256').update(key).digest();
  return {
    seal(plain: string): string {
      if (isSealed(plain)) return plain;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', k, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(sealed: string): string {
      if (!isSealed(sealed)) return sealed;
      const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', k, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
