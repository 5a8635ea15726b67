/**
 * Projections pushed into the SQL of a find, so a list never parses in JavaScript the parts of a
 * document it leaves out (a host's `grain`, several KB of its ~2.5 KB). A projection of top-level
 * fields only is done by SQLite on documents over {@link LARGE_DOC_BYTES}:
 *
 * - an exclusion with `json_remove(doc, '$.f', ...)`;
 * - an inclusion with `json_group_object` over the document's own members (`json_each`), each
 *   value taken as JSON text (`doc -> '$.f'`: numbers keep their digits, `true` stays `true`), so
 *   a missing field stays missing and a null stays null.
 *
 * SQLite's JSON functions parse and rewrite the whole text, ~5 us a row even for a short document
 * with nothing to drop, more than JSON.parse of that document costs: short documents come whole
 * and the same projection is finished in JavaScript (deleting or picking top-level keys, which a
 * document SQLite already projected passes unchanged). Anything else (dotted paths) is mingo's,
 * after the read. Figures: docs/performance.md.
 */
import type { Doc, Projection } from '../port';

/** Documents up to this size are projected in JavaScript (see above). */
export const LARGE_DOC_BYTES = 1024;

const TOP_LEVEL = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** How one find projects: its SQL document expression, then what JavaScript still does. */
export interface ProjectionPlan {
  /** `doc`, or the SQL that projects large documents. */
  readonly docExpr: string;
  /** Finishes the projection on a decoded document (in place or as a new one); undefined: nothing to do. */
  readonly finish?: (doc: Doc) => Doc;
  /** A projection left to mingo (paths below the top level). */
  readonly rest?: Projection;
}

const WHOLE: ProjectionPlan = { docExpr: 'doc' };

/** The plan of a normalised projection (no `_id` key, all 1 or all 0; undefined: none). */
export function projectionPlan(projection: Projection | undefined): ProjectionPlan {
  if (projection === undefined) return WHOLE;
  const keys = Object.keys(projection);
  if (!keys.every((key) => TOP_LEVEL.test(key))) return { docExpr: 'doc', rest: projection };
  const large = `octet_length(doc) > ${LARGE_DOC_BYTES}`;
  if (Object.values(projection).every((v) => v === 0)) {
    return {
      docExpr: `CASE WHEN ${large} THEN json_remove(doc, ${keys.map((k) => `'$.${k}'`).join(', ')}) ELSE doc END`,
      finish: dropper(keys),
    };
  }
  const kept = ['_id', ...keys];
  const picked = `(SELECT json_group_object(key, doc -> ('$.' || key)) FROM json_each(doc) WHERE key IN (${kept.map((k) => `'${k}'`).join(', ')}))`;
  return { docExpr: `CASE WHEN ${large} THEN ${picked} ELSE doc END`, finish: picker(kept) };
}

function dropper(keys: readonly string[]): (doc: Doc) => Doc {
  return (doc) => {
    for (const key of keys) if (Object.hasOwn(doc, key)) delete doc[key];
    return doc;
  };
}

function picker(kept: readonly string[]): (doc: Doc) => Doc {
  return (doc) => {
    const out: Record<string, unknown> = {};
    for (const key of kept) if (Object.hasOwn(doc, key)) out[key] = doc[key];
    return out as Doc;
  };
}
