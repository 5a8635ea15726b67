/**
 * files: uploaded files (multipart `name` + `data`). `data` reads back as `/api/media/<id>`,
 * which streams the bytes with their content type.
 */
import { defineResource, f } from '@fleet/engine';

export const files = defineResource({
  name: 'files',
  description: 'Uploaded files. POST multipart/form-data with `name` and `data` (the file).',
  fields: {
    name: f.string({ maxLength: 255 }),
    data: f.media({ required: true }),
  },
  methods: { list: 'viewer', get: 'viewer', create: 'operator', delete: 'admin' },
});
