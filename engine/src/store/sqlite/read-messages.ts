/**
 * What the store's connection and its read workers (read-pool.ts, read-worker.ts) exchange: a read
 * (a find or a count of one collection) and its answer, or its error as data. Structured clones
 * carry Dates, RegExps and Maps as they are, so documents and filters cross unchanged.
 */
import { HttpError, type Issues } from '../../errors';
import type { Filter, FindOptions } from '../port';
import type { CollectionInfo } from './collections';

/** One read: a find or a count of one collection. */
export type Read =
  | {
      readonly kind: 'find';
      readonly info: CollectionInfo;
      readonly filter: Filter;
      readonly options: FindOptions;
    }
  | { readonly kind: 'count'; readonly info: CollectionInfo; readonly filter: Filter };

/** A read numbered by the asking side. */
export type ReadRequest = Read & { readonly id: number };

/** An error as data: an HTTP error's status and texts, or a driver error's message and code. */
export type WireError =
  | {
      readonly http: true;
      readonly status: number;
      readonly message: string;
      readonly issues?: Issues;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly http: false; readonly message: string; readonly code?: string };

/**
 * The answer to request `id`. A find's documents travel as their JSON texts (encodeDoc), revived
 * by the store (decodeDoc) as it revives its own rows: a structured clone would hand over Dates
 * of the worker's realm, which `instanceof Date` does not know where realms differ (Jest).
 */
export type ReadAnswer =
  | { readonly id: number; readonly ok: true; readonly texts?: string[]; readonly n?: number }
  | { readonly id: number; readonly ok: false; readonly error: WireError };

/** `err` as data (its class is lost on the way; status, texts and a driver's code are kept). */
export function toWire(err: unknown): WireError {
  if (err instanceof HttpError) {
    return {
      http: true,
      status: err.status,
      message: err.message,
      ...(err.issues === undefined ? {} : { issues: err.issues }),
      ...(err.headers === undefined ? {} : { headers: err.headers }),
    };
  }
  const code =
    typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string'
      ? err.code
      : undefined;
  return {
    http: false,
    message: err instanceof Error ? err.message : String(err),
    ...(code === undefined ? {} : { code }),
  };
}

/** The error `wire` describes: an `HttpError` of the same status, or an Error with the driver's code (faults.ts reads it). */
export function fromWire(wire: WireError): Error {
  if (wire.http) return new HttpError(wire.status, wire.message, wire.issues, wire.headers);
  const err = new Error(wire.message);
  if (wire.code !== undefined) Object.defineProperty(err, 'code', { value: wire.code, enumerable: true });
  return err;
}
