/**
 * Leases in the `leases` collection, one document per lease: `{_id: name, holder, expires_at}`.
 *
 * Acquisition is one atomic `findOneAndUpdate` with upsert: it matches the lease when it has
 * expired or is already ours, and otherwise tries to insert it, which the `_id` index refuses
 * (E11000) when another holder has it: that refusal is the "not acquired" answer. Two instances
 * racing for a free lease are serialised the same way: one insert wins, the other gets E11000.
 * Expiry is judged by the caller's clock, so instances must keep their clocks in sync (NTP): a
 * skew is tolerated as long as it is well below the lease's time to live.
 */
import type mongoose from 'mongoose';
import { Conflict } from '../../errors';
import type { Lease, LeaseStore } from '../port';
import type { DbSource } from './connection';
import { translateMongoError } from './errors';

/** The collection holding leases. */
export const LEASES_COLLECTION = 'leases';

interface LeaseDoc {
  _id: string;
  holder: string;
  expires_at: Date;
}

/** A lease's `findOneAndUpdate` call. */
export interface LeasePlan {
  readonly filter: {
    _id: string;
    holder?: string;
    $or?: ({ expires_at: { $lte: Date } } | { holder: string })[];
  };
  readonly update: { $set: { holder?: string; expires_at: Date } };
  readonly options: { upsert: boolean; returnDocument: 'after'; includeResultMetadata: false };
}

/** The driver call that takes a lease when it is free, expired, or already held by `holder`. */
export function planAcquire(name: string, holder: string, ttlMs: number, now: Date): LeasePlan {
  return {
    filter: { _id: name, $or: [{ expires_at: { $lte: now } }, { holder }] },
    update: { $set: { holder, expires_at: new Date(now.getTime() + ttlMs) } },
    options: { upsert: true, returnDocument: 'after', includeResultMetadata: false },
  };
}

/** The driver call that extends a lease `holder` still has (even if expired, when nobody took it). */
export function planRenew(name: string, holder: string, ttlMs: number, now: Date): LeasePlan {
  return {
    filter: { _id: name, holder },
    update: { $set: { expires_at: new Date(now.getTime() + ttlMs) } },
    options: { upsert: false, returnDocument: 'after', includeResultMetadata: false },
  };
}

function leaseOf(doc: LeaseDoc | null): Lease | null {
  return doc === null ? null : { name: doc._id, holder: doc.holder, expiresAt: doc.expires_at };
}

/** Leases over the connector's database. */
export class MongoLeases implements LeaseStore {
  constructor(private readonly connector: DbSource) {}

  /** Takes the lease when it is free, expired, or ours; `null` when another holder has it. */
  async acquire(name: string, holder: string, ttlMs: number): Promise<Lease | null> {
    const { filter, update, options } = planAcquire(name, holder, ttlMs, new Date());
    const leases = await this.collection();
    try {
      return leaseOf(await leases.findOneAndUpdate(filter, update, options));
    } catch (error) {
      const translated = translateMongoError(error);
      // The upsert collided with a live lease of another holder (or lost an insert race).
      if (translated instanceof Conflict) return null;
      throw translated;
    }
  }

  /** Extends our lease; `null` when it was lost to another holder. */
  async renew(name: string, holder: string, ttlMs: number): Promise<Lease | null> {
    const { filter, update, options } = planRenew(name, holder, ttlMs, new Date());
    const leases = await this.collection();
    try {
      return leaseOf(await leases.findOneAndUpdate(filter, update, options));
    } catch (error) {
      throw translateMongoError(error);
    }
  }

  /** Gives the lease up if it is ours; `true` when it was. */
  async release(name: string, holder: string): Promise<boolean> {
    const leases = await this.collection();
    try {
      const { deletedCount } = await leases.deleteOne({ _id: name, holder });
      return deletedCount > 0;
    } catch (error) {
      throw translateMongoError(error);
    }
  }

  /** The leases among `names` that some holder has now (not expired). */
  async live(names: readonly string[]): Promise<Lease[]> {
    const leases = await this.collection();
    try {
      const docs = await leases.find({ _id: { $in: [...names] }, expires_at: { $gt: new Date() } }).toArray();
      return docs.map((doc) => ({ name: doc._id, holder: doc.holder, expiresAt: doc.expires_at }));
    } catch (error) {
      throw translateMongoError(error);
    }
  }

  private async collection(): Promise<mongoose.mongo.Collection<LeaseDoc>> {
    return (await this.connector.db()).collection<LeaseDoc>(LEASES_COLLECTION);
  }
}
