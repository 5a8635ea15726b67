/**
 * settings: one item, `_id` "0", created at first start. PATCH merges nested objects
 * (`{"addresses": {"resolver_address": "..."}}` keeps `master_address`), and takes the flat form
 * the spec shows (`{"resolver_address": "..."}`) as well: each `addresses` key is also a
 * write-only top-level field that `prepare` moves into `addresses`, so any other key is still an
 * unknown field (422). A resolver address is empty or an http(s) URL (the graph's `request_ips`
 * GETs it from every host, resources/graph/resolver.ts).
 */
import { defineResource, f, Unprocessable } from '@fleet/engine';
import { resolverIssue } from './graph/resolver';

const ADDRESS_KEYS = ['resolver_address', 'master_address', 'file'] as const;
type AddressKey = (typeof ADDRESS_KEYS)[number];
type Addresses = { resolver_address?: string; master_address?: string; file?: string | null };

const flat = (what: string) =>
  ({ writeOnly: true, description: `Flat form of addresses.${what} (the spec's PATCH body)` }) as const;

/** `addresses` with the flat keys of the body moved in; the same key given both ways must agree. */
function withFlatKeys<A extends Addresses>(
  addresses: A | undefined,
  extras: Partial<Record<AddressKey, string | null>>,
): A | undefined {
  const given = ADDRESS_KEYS.filter((k) => extras[k] !== undefined);
  if (given.length === 0) return addresses;
  const issues: Record<string, string> = {};
  // A PATCH's sub-document holds only the keys given: the merge keeps the others. The hook's type
  // (FieldValuesOf) declares the sub-document whole, so the partial copy is asserted to be `A`.
  const out = { ...addresses } as A;
  for (const key of given) {
    const value = extras[key];
    if (addresses?.[key] !== undefined && addresses[key] !== value)
      issues[key] = `given twice with different values (here and as addresses.${key})`;
    if (key === 'file') out.file = value ?? null;
    else if (typeof value === 'string') out[key] = value;
  }
  if (Object.keys(issues).length > 0) throw new Unprocessable('settings: conflicting fields', issues);
  return out;
}

export const settings = defineResource({
  name: 'settings',
  description: 'Service settings: one item with _id "0".',
  id: 'natural',
  fields: {
    addresses: f.object(
      {
        resolver_address: f.string({
          default: '',
          description:
            'URL of the IP resolver (http or https; empty: none) that POST /api/graph request_ips uses by default',
        }),
        master_address: f.string({ default: '' }),
        file: f.ref('files', { nullable: true, onDelete: 'nullify' }),
      },
      { default: () => ({ resolver_address: '', master_address: '', file: null }) },
    ),
    resolver_address: f.string(flat('resolver_address')),
    master_address: f.string(flat('master_address')),
    file: f.string({ ...flat('file'), nullable: true }),
  },
  methods: { list: 'viewer', get: 'viewer', patch: 'admin' },
  hooks: {
    async prepare({ fields, extras }) {
      const addresses = withFlatKeys(fields.addresses, extras);
      const resolver = addresses?.resolver_address;
      const why = resolver === undefined || resolver === '' ? null : resolverIssue(resolver);
      if (why)
        throw new Unprocessable('settings: bad resolver address', {
          [extras.resolver_address !== undefined ? 'resolver_address' : 'addresses.resolver_address']: why,
        });
      return addresses === undefined ? fields : { ...fields, addresses };
    },
  },
  initialItems: (settings) => [
    {
      _id: '0',
      addresses: {
        resolver_address: '',
        master_address: settings.saltMasterName ?? '',
        file: null,
      },
    },
  ],
});

declare module '@fleet/engine' {
  interface Settings {
    /** SALT_MASTER_NAME: the settings item's first `master_address`. */
    readonly saltMasterName?: string;
  }
}
