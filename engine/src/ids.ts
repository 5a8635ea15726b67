/**
 * Generated document ids in MongoDB's ObjectId layout, as 24 lowercase hex characters, so that
 * both adapters hand out the same kind of id and ids sort by creation time.
 */
import { randomBytes, randomInt } from 'node:crypto';

/** Random per process, like the driver's: two processes never collide within one second. */
const PROCESS_UNIQUE = randomBytes(5);
/** Starts at a random value (as the spec allows) and wraps at 2^24. */
let counter = randomInt(0, 0xffffff);

/**
 * A new id: 4-byte big-endian seconds since the epoch, 5 process-random bytes, 3-byte counter
 * (https://www.mongodb.com/docs/manual/reference/method/ObjectId/).
 */
export function newObjectId(): string {
  const bytes = Buffer.alloc(12);
  bytes.writeUInt32BE(Math.floor(Date.now() / 1000) >>> 0, 0);
  PROCESS_UNIQUE.copy(bytes, 4);
  counter = (counter + 1) % 0x1000000;
  bytes.writeUIntBE(counter, 9, 3);
  return bytes.toString('hex');
}
