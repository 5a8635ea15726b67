/**
 * The stored text of a seeded action, made without the engine: what `createMany` as the system
 * principal stores for `actionDoc(row)` (seed/actions.ts), byte for byte. The resource's fields in
 * declaration order with their defaults (`salt_user: null`), an argument object's declared key
 * (`__kwarg__`) before its open ones, `_created` / `_updated` as ISO texts, and `_etag` the SHA-1
 * of the canonical JSON (keys sorted, `_etag` left out). The bulk loader (bulk-actions.ts) checks
 * this against the engine's own writes on every seed, and test/perf/bulk-seed.test.ts on a whole
 * fleet, so a change of the resource shows up as a refused seed, never as a different file.
 */
import { createHash } from 'node:crypto';
import { actionDoc, type ActionRow } from '../src/seed/actions';

/** An action ready for `INSERT INTO c_actions (id, doc)`. */
export interface ActionText {
  readonly id: string;
  readonly text: string;
}

/** The JSON of `value` with the keys of every object sorted (the etag's canonical form). */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** An argument object as validation leaves it: the declared `__kwarg__` first, then the open keys. */
function storedArgument(arg: unknown): unknown {
  if (arg === null || typeof arg !== 'object' || Array.isArray(arg)) return arg;
  const { __kwarg__: kwarg, ...open } = arg as Record<string, unknown>;
  return kwarg === undefined ? open : { __kwarg__: kwarg, ...open };
}

/** The two texts of a template's arguments (stored and canonical), made once per argument list. */
const argsTexts = new WeakMap<object, { stored: string; canonical: string }>();

function argsOf(args: unknown): { stored: string; canonical: string } {
  const list = Array.isArray(args) ? args : [];
  let texts = argsTexts.get(list);
  if (texts === undefined) {
    texts = { stored: JSON.stringify(list.map(storedArgument)), canonical: sortedJson(list) };
    argsTexts.set(list, texts);
  }
  return texts;
}

const json = (value: unknown): string => JSON.stringify(value) ?? 'null';

/** The stored id and text of the action `row`. */
export function actionText(row: ActionRow): ActionText {
  const doc = actionDoc(row);
  const args = argsOf(doc.args);
  const at = json(new Date(row.created).toISOString());
  const [id, jid, action, host, ret, success, user] = [
    json(doc._id),
    json(doc.jid),
    json(doc.action),
    json(doc.host),
    json(doc.return ?? null),
    json(doc.success ?? null),
    json(doc.user ?? null),
  ];
  const state = json(doc.state ?? 'finished');
  const canonical = `{"_created":${at},"_id":${id},"_updated":${at},"action":${action},"args":${args.canonical},"host":${host},"jid":${jid},"return":${ret},"salt_user":null,"state":${state},"success":${success},"user":${user}}`;
  const etag = createHash('sha1').update(canonical).digest('hex');
  return {
    id: row.id,
    text: `{"_id":${id},"jid":${jid},"action":${action},"host":${host},"state":${state},"args":${args.stored},"return":${ret},"success":${success},"user":${user},"salt_user":null,"_created":${at},"_updated":${at},"_etag":"${etag}"}`,
  };
}
