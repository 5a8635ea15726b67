/**
 * Type tests: a resource's TypeScript types are inferred from its definition, never written twice
 * (engine/src/definition/infer.ts). `tsc -p tsconfig.json --noEmit` checks them; Jest runs the file
 * too, where the runtime half ties the pinned types to the definitions they come from.
 */
import { expectTypeOf } from 'expect-type';
import { defineResource, f, type CreateInputOf, type ItemOf, type PatchInputOf } from '../../engine/src';
import { groups, hosts, type settings, tasks, type updates, type vpn_managers } from '../../resources';

/** The keys of T that are not optional. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends Pick<T, K>` is how an optional key is told apart
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

describe('ItemOf', () => {
  it('hosts: meta fields, defaulted fields present (null when nullable), the rest optional, enums and nullables kept', () => {
    type Host = ItemOf<typeof hosts>;
    expectTypeOf<RequiredKeys<Host>>().toEqualTypeOf<
      | '_id'
      | '_created'
      | '_updated'
      | '_etag'
      | 'groups'
      | 'nodegroups'
      | 'fingerprint_history'
      | 'nat'
      | 'last_action'
      | 'vpnsrv_representation'
      | 'vpn_organization'
      | 'identification_number'
    >();
    expectTypeOf<Host['_id']>().toEqualTypeOf<string>();
    expectTypeOf<Host['_created']>().toEqualTypeOf<Date>();
    expectTypeOf<Host['groups']>().toEqualTypeOf<string[]>();
    expectTypeOf<Host['status']>().toEqualTypeOf<'up' | 'down' | undefined>();
    expectTypeOf<Host['key']>().toEqualTypeOf<'accepted' | 'pending' | 'rejected' | 'denied' | undefined>();
    expectTypeOf<Host['identification_number']>().toEqualTypeOf<string | null>();
    expectTypeOf<Host['last_stateapply']>().toEqualTypeOf<Date | null | undefined>();
    expectTypeOf<Host['fingerprint_history']>().toEqualTypeOf<{ added?: Date; fingerprint?: string }[]>();
    type Grain = NonNullable<Host['grain']>;
    expectTypeOf<Grain['num_cpus']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Grain['serialnumber']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Grain['gpus']>().toEqualTypeOf<{ model?: string; vendor?: string }[] | undefined>();
    // `grain` is open: undeclared keys (tool versions) are allowed and unknown.
    expectTypeOf<Grain['saltversion']>().toEqualTypeOf<unknown>();
    expectTypeOf<NonNullable<Host['vpnsrv_representation']>['otp_secret']>().toEqualTypeOf<
      string | undefined
    >();
  });

  it('groups: the write-only `hosts` is not part of a stored group; type is its enum', () => {
    type Group = ItemOf<typeof groups>;
    expectTypeOf<Group>().not.toHaveProperty('hosts');
    expectTypeOf<Group['type']>().toEqualTypeOf<0 | 1 | 2 | 3 | 4>();
    expectTypeOf<Group['subgroups']>().toEqualTypeOf<string[]>();
    expectTypeOf<keyof Group['info']>().toEqualTypeOf<'regex' | 'grain' | 'ip'>();
    expectTypeOf<Group['info']['regex']>().toEqualTypeOf<string | undefined>();
    // An open object without declared sub-fields: any attribute name to any value.
    expectTypeOf<NonNullable<Group['info']['grain']>>().toExtend<Record<string, unknown>>();
    expectTypeOf<Record<string, unknown>>().toExtend<NonNullable<Group['info']['grain']>>();
    expect(groups.fields.hosts.writeOnly).toBe(true);
  });

  it('settings: nested defaults make the sub-fields present', () => {
    expectTypeOf<ItemOf<typeof settings>['addresses']>().toEqualTypeOf<{
      resolver_address: string;
      master_address: string;
      file?: string | null;
    }>();
  });

  it('tasks: server-set fields are part of the stored item', () => {
    type Task = ItemOf<typeof tasks>;
    expectTypeOf<Task['next']>().toEqualTypeOf<Date | null | undefined>();
    expectTypeOf<Task['count_of_execution']>().toEqualTypeOf<number>();
    expectTypeOf<Task['status']>().toEqualTypeOf<'scheduled' | 'paused' | 'finished'>();
  });
});

describe('CreateInputOf', () => {
  it('tasks: the required fields are mandatory, server-set ones absent', () => {
    type Create = CreateInputOf<typeof tasks>;
    expectTypeOf<RequiredKeys<Create>>().toEqualTypeOf<'name' | 'fun' | 'start' | 'tgt'>();
    expectTypeOf<Create>().not.toHaveProperty('next');
    expectTypeOf<Create>().not.toHaveProperty('count_of_execution');
    expectTypeOf<Create>().not.toHaveProperty('last_run');
    expectTypeOf<Create['interval']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<Create['salt_client']>().toEqualTypeOf<
      'local' | 'local_async' | 'local_batch' | undefined
    >();
    expectTypeOf({
      name: 'uptime',
      fun: 'cmd.run',
      start: new Date(),
      tgt: ['web-01'],
      interval: 180,
    }).toExtend<Create>();
    expectTypeOf<{ name: string; fun: string; tgt: string[] }>().not.toExtend<Create>();
    expectTypeOf<{
      name: string;
      fun: string;
      start: Date;
      tgt: string[];
      status: 'running';
    }>().not.toExtend<Create>();
    const readonlyFields = Object.entries(tasks.fields)
      .filter(([, field]) => 'readonly' in field && field.readonly === true)
      .map(([name]) => name);
    expect(readonlyFields.sort()).toEqual([
      'count_of_execution',
      'last_error',
      'last_jid',
      'last_run',
      'next',
    ]);
  });

  it('vpn_managers: every field required, the secret password included', () => {
    expectTypeOf<CreateInputOf<typeof vpn_managers>>().toEqualTypeOf<{
      name: string;
      server_address: string;
      dashboard_address: string;
      username: string;
      password: string;
    }>();
  });

  it('groups: the write-only `hosts` is accepted', () => {
    expectTypeOf<CreateInputOf<typeof groups>['hosts']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<RequiredKeys<CreateInputOf<typeof groups>>>().toEqualTypeOf<'name'>();
  });
});

describe('PatchInputOf', () => {
  it('hosts: exactly the patchable fields, all optional', () => {
    expectTypeOf<PatchInputOf<typeof hosts>>().toEqualTypeOf<{
      identification_number?: string | null;
      groups?: string[];
      vpn_organization?: string | null;
    }>();
    expect(hosts.patchable).toEqual(['identification_number', 'groups', 'vpn_organization']);
  });

  it('updates: only the description', () => {
    expectTypeOf<PatchInputOf<typeof updates>>().toEqualTypeOf<{ description?: string }>();
  });

  it('without `patchable`: every writable field, optional', () => {
    expectTypeOf<keyof PatchInputOf<typeof groups>>().toEqualTypeOf<
      'name' | 'type' | 'subgroups' | 'info' | 'hosts'
    >();
    expectTypeOf<RequiredKeys<PatchInputOf<typeof groups>>>().toEqualTypeOf<never>();
  });
});

describe('a definition written here', () => {
  const probes = defineResource({
    name: 'probes',
    description: 'Every field kind, for the inference only.',
    fields: {
      label: f.string({ required: true }),
      mode: f.string({ enum: ['a', 'b'], default: 'a' }),
      level: f.integer({ enum: [1, 2, 3] }),
      ratio: f.number({ nullable: true }),
      on: f.boolean({ default: false }),
      seen: f.datetime({ readonly: true }),
      meta: f.object({ k: f.string({ required: true }) }, { open: true }),
      items: f.array(f.object({ n: f.integer() })),
      owner: f.ref('hosts'),
      blob: f.media(),
      token: f.string({ secret: true, required: true }),
      note: f.string({ writeOnly: true }),
    },
    methods: { list: 'viewer' },
    patchable: ['label', 'on'],
  });

  it('infers the item, the create input and the patch input', () => {
    expectTypeOf<ItemOf<typeof probes>>().toEqualTypeOf<{
      _id: string;
      _created: Date;
      _updated: Date;
      _etag: string;
      label: string;
      mode: 'a' | 'b';
      on: boolean;
      token: string;
      level?: 1 | 2 | 3;
      ratio?: number | null;
      seen?: Date;
      meta?: { k: string } & Record<string, unknown>;
      items?: { n?: number }[];
      owner?: string;
      blob?: string;
    }>();
    expectTypeOf<RequiredKeys<CreateInputOf<typeof probes>>>().toEqualTypeOf<'label' | 'token'>();
    expectTypeOf<CreateInputOf<typeof probes>>().not.toHaveProperty('seen');
    expectTypeOf<CreateInputOf<typeof probes>['note']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PatchInputOf<typeof probes>>().toEqualTypeOf<{ label?: string; on?: boolean }>();
    expect(Object.keys(probes.fields)).toHaveLength(12);
  });
});
