/**
 * vpn_organizations: organizations on a VPN server; hosts are linked to one. POST creates the
 * organization on its manager's server first and stores the server's record in
 * `vpnsrv_representation` (`cipher_type` kept locally: the server has no such field, pritunl/organization/);
 * if the store then refuses the write, `onWriteError` deletes it there again. DELETE is refused
 * (409) while a visible host uses it, before anything is deleted anywhere (the relation decides
 * before `beforeDelete`), and (409 naming them) while VPN servers hold it: Pritunl would stop
 * every online one. Then it is deleted on the server (already gone is fine), then here.
 */
import { defineResource, f, systemContext } from '@fleet/engine';
import { idOf, vpn } from './ports/vpn';

export const vpn_organizations = defineResource({
  name: 'vpn_organizations',
  description: 'VPN organizations, each on one VPN manager: created and deleted on its VPN server.',
  fields: {
    name: f.string({ required: true, minLength: 1 }),
    vpn_manager: f.ref('vpn_managers', { required: true, onDelete: 'restrict' }),
    vpnsrv_representation: f.object(
      {
        auth_api: f.boolean(),
        name: f.string(),
        auth_token: f.string({ nullable: true, secret: true }),
        user_count: f.integer(),
        auth_secret: f.string({ nullable: true, secret: true }),
        id: f.string(),
        cipher_type: f.string(),
      },
      {
        open: true,
        default: () => ({}),
        description:
          'The organization on the VPN server (its record at creation or the last reconcile); on POST, `name` and `auth_api` are sent to the server',
      },
    ),
    cipher_type: f.string({ default: 'rsa' }),
    type: f.integer({ default: 6 }),
    unreachable: f.boolean({
      readonly: true,
      default: false,
      description:
        'The last reconcile could not use the manager (down, too slow, or refusing the credentials)',
    }),
  },
  methods: { list: 'viewer', get: 'viewer', create: 'admin', delete: 'admin' },
  hooks: {
    async prepare({ op, fields, ctx }) {
      if (op !== 'create' || fields.vpn_manager === undefined) return fields;
      const given = fields.vpnsrv_representation ?? {};
      const name = typeof given.name === 'string' && given.name !== '' ? given.name : (fields.name ?? '');
      const record = await vpn(ctx).createOrganization(
        { manager: fields.vpn_manager, name, authApi: given.auth_api === true },
        ctx,
      );
      // No such manager: nothing was created; the reference check answers 422 naming vpn_manager.
      if (record === null) return fields;
      const cipher = typeof given.cipher_type === 'string' ? given.cipher_type : fields.cipher_type;
      return {
        ...fields,
        vpnsrv_representation: { ...record, ...(cipher === undefined ? {} : { cipher_type: cipher }) },
      };
    },
    async onWriteError({ op, fields, ctx }) {
      const id = idOf(fields.vpnsrv_representation, 'id');
      if (op === 'create' && fields.vpn_manager !== undefined && id !== undefined)
        await vpn(ctx).undoOrganization({ manager: fields.vpn_manager, id }, ctx);
    },
    async beforeDelete({ doc, ctx }) {
      const id = idOf(doc.vpnsrv_representation, 'id');
      if (id !== undefined)
        await vpn(ctx).deleteOrganization({ manager: doc.vpn_manager, id, name: doc.name }, ctx);
    },
    async afterDelete({ doc, ctx }) {
      // Hidden hosts did not block the delete: their reference was nulled in the same batch, and
      // the server deleted their accounts with the organization. Their records go too.
      const id = idOf(doc.vpnsrv_representation, 'id');
      if (id === undefined) return;
      const system = systemContext(ctx.runtime, ctx.now);
      await ctx.runtime.resources
        .get('hosts')
        .patchMany(
          { vpn_organization: null, 'vpnsrv_representation.organization': id },
          { vpnsrv_representation: null },
          system,
          { showDeleted: true },
        );
    },
  },
});
