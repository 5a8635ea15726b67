/**
 * The generic tests hold for any resource a definition file adds, its hooks' rules included: a
 * resource whose hook compares two dates (`ends_at` after `starts_at`, the README's kind of rule)
 * declares a sample that keeps the rule, and the generic read tests pass over it in a registry of
 * its own beside every real resource. A resource whose sample breaks its own rule fails alone:
 * the others, set up each on its own, still pass.
 */
import { defineResource, f, Unprocessable, type AnyResourceDefinition } from '../../../engine/src';
import { allResources } from '../../../resources';
import { createSample, startTestServer, uniqueName, type TestServer } from '../../helpers';
import { describeReads, sampleCase } from './reads';

/** A resource with a date rule; `sample` is its own valid item when given. */
function windowsResource(name: string, sample?: () => Record<string, unknown>): AnyResourceDefinition {
  return defineResource({
    name,
    description: 'Windows with a start and an end.',
    fields: {
      title: f.string({ required: true }),
      group: f.ref('groups', { nullable: true, default: null, onDelete: 'nullify' }),
      starts_at: f.datetime({ required: true }),
      ends_at: f.datetime({ required: true }),
    },
    methods: { list: 'viewer', get: 'viewer', create: 'operator' },
    hooks: {
      async prepare({ fields, original }) {
        const starts = fields.starts_at ?? original?.starts_at;
        const ends = fields.ends_at ?? original?.ends_at;
        if (starts && ends && !(ends > starts))
          throw new Unprocessable(`${name}: the window ends before it starts`, {
            ends_at: 'must be after starts_at',
          });
        return fields;
      },
    },
    ...(sample ? { sample } : {}),
  });
}

const WITH_SAMPLE = uniqueName('windows').replace(/\W/g, '_');
const WITHOUT_SAMPLE = uniqueName('plain_windows').replace(/\W/g, '_');
const valid = () => ({
  title: 'rack move',
  starts_at: new Date('2030-01-01T02:00:00Z'),
  ends_at: new Date('2030-01-01T04:00:00Z'),
});

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({
    definitions: [...allResources, windowsResource(WITH_SAMPLE, valid), windowsResource(WITHOUT_SAMPLE)],
  });
});
afterAll(() => t.close());

describe('a resource whose hook compares two dates, with its own sample', () => {
  describeReads(WITH_SAMPLE, { server: () => t, case: sampleCase(() => t, WITH_SAMPLE) });
});

describe('beside it, resources sampled from their definitions alone still pass', () => {
  describe.each(['groups', 'nodegroups'])('%s', (name) =>
    describeReads(name, { server: () => t, case: sampleCase(() => t, name) }),
  );
});

it('without a declared sample, one value for every datetime breaks the rule: that resource alone is refused', async () => {
  await expect(createSample(t.engine, WITHOUT_SAMPLE)).rejects.toBeInstanceOf(Unprocessable);
  await expect(createSample(t.engine, WITH_SAMPLE)).resolves.toMatchObject({ id: expect.any(String) });
});
