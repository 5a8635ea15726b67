/**
 * Minion public keys and their fingerprints, as the master's `pki_dir` holds them.
 * The fingerprint follows `salt.utils.crypt.pem_finger` (salt/runners/manage.py, salt/wheel/key.py): the hash
 * (master `hash_type`, default sha256) of the PEM body lines *with their newlines*,
 * header and footer excluded, as lowercase hex in colon-separated pairs.
 */
import { createHash, randomBytes } from 'node:crypto';

/** Size of a DER-encoded RSA-2048 SubjectPublicKeyInfo, so generated keys look real. */
const RSA_2048_SPKI_BYTES = 294;

/** Wraps DER bytes into a `-----BEGIN PUBLIC KEY-----` PEM block (64-column base64). */
export function toPem(der: Buffer): string {
  const b64 = der.toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return ['-----BEGIN PUBLIC KEY-----', ...lines, '-----END PUBLIC KEY-----', ''].join('\n');
}

/** A PEM public key from the given random bytes (or fresh OS randomness). */
export function makePublicKey(seedBytes?: Buffer): string {
  const body = seedBytes ?? randomBytes(RSA_2048_SPKI_BYTES);
  return toPem(body);
}

/** `pem_finger(key=...)`: sha256 over the non-blank body lines, kept with their `\n`. */
export function pemFinger(pem: string, hashType = 'sha256'): string {
  const lines = pem
    .replace(/\r\n/g, '\n')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const body = lines
    .slice(1, -1)
    .map((l) => `${l}\n`)
    .join('');
  const hex = createHash(hashType).update(body).digest('hex');
  return (hex.match(/../g) ?? []).join(':');
}

export { RSA_2048_SPKI_BYTES };
