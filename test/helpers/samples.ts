/**
 * Sample items of any resource, made from its definition alone: the fields of its declared
 * `sample` as they are, every other required field a value of its kind, references sample items
 * of their targets (created first). Written through
 * the local API as the system principal, so a resource added with one definition file is covered
 * by the generic tests without a fixture of its own.
 */
import { systemContext, type CompiledResource, type Engine, type Field } from '../../engine/src';
import { uniqueName } from './fixtures';

type Make = (field: Field, path: string) => Promise<unknown>;

/** A value of one field (refs create their target). */
async function valueOf(engine: Engine, field: Field, path: string, make: Make): Promise<unknown> {
  switch (field.kind) {
    case 'string':
      return (
        field.enum?.[0] ??
        (field.secret ? `secret-${uniqueName('s')}` : uniqueName(path.replace(/\W/g, '').slice(0, 8) || 's'))
      );
    case 'integer':
      return field.enum?.[0] ?? Math.max(field.min ?? 1, 1);
    case 'number':
      return Math.max(field.min ?? 1.5, 1.5);
    case 'boolean':
      return true;
    case 'datetime':
      return new Date(Date.UTC(2030, 0, 1, 4, 30));
    case 'ref':
      return (await createSample(engine, field.to)).id;
    case 'array':
      return [await make(field.of, `${path}[]`)];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(field.fields))
        if (sub.required) out[name] = await make(sub, `${path}.${name}`);
      return out;
    }
    case 'media':
      return undefined;
  }
}

/** The data of a sample item: required fields, and optional scalars and references. */
export async function sampleData(engine: Engine, res: CompiledResource): Promise<Record<string, unknown>> {
  const make: Make = (field, path) => valueOf(engine, field, path, make);
  const data: Record<string, unknown> =
    res.def.id === 'natural' && !res.def.idFrom ? { _id: uniqueName(res.name) } : {};
  const declared: Record<string, unknown> = { ...res.def.sample?.() };
  for (const [name, field] of Object.entries(res.def.fields)) {
    if (name in declared) {
      data[name] = declared[name];
      continue;
    }
    if (field.writeOnly || field.kind === 'media') continue;
    if (!field.required && (field.kind === 'object' || field.kind === 'array')) continue;
    const value = await make(field, name);
    if (value !== undefined) data[name] = value;
  }
  return data;
}

/** Creates a sample item of `name`; resolves its id and the data written. */
export async function createSample(
  engine: Engine,
  name: string,
): Promise<{ id: string; data: Record<string, unknown> }> {
  const res = engine.registry.get(name);
  const data = await sampleData(engine, res);
  const item = await engine.runtime.resources.get(name).create(data, systemContext(engine.runtime));
  return { id: item._id, data };
}
