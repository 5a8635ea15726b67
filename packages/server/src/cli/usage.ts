/**
 * The usage texts of the commands that take arguments: here, apart from the commands, so that
 * `fleet --help` loads nothing but its text (it answers before the server's code is loaded).
 */

export const NEW_RESOURCE_USAGE = `usage: fleet new-resource <name> [--description TEXT] [--dir DIR (resources)]

Writes DIR/<name>.ts (a definition in the style of the README's worked example: fields, a
relation, roles, an index, a hook) and registers it in DIR/registry.ts. <name> is the collection and
its URL, /api/<name>: lower case letters, digits and "_", starting with a letter.`;

export const OPENAPI_USAGE = `usage: fleet openapi [--out FILE]

Writes the OpenAPI 3.1 document of every resource and route (what GET /api/openapi.json serves)
to FILE, or to stdout.`;

export const TOKEN_USAGE = `usage: fleet token create <name> [--role viewer|operator|admin (viewer)]
       fleet token list
       fleet token revoke <name>

create  makes a token, prints it once on stdout (keep it: only its digest is stored);
        a token name is 1 to 64 characters: lowercase letters, digits, "_", "." and "-", starting
        with a letter or digit, and not system, constructor, prototype or token-<8 hex digits>
list    names, roles and dates of every token: API_TOKENS, the generated admin token, the stored ones
revoke  ends a stored token (kept in the list, marked revoked)

Running servers see a created or revoked token within TOKEN_REFRESH_S (5 s). The store is the
one of DATABASE_URL, as for serve.`;

export const IMPORT_USAGE = `usage: fleet import --from <dir | mongodb://...> [--only c1,c2] [--drop-unknown]

Copies the original application's database into the store of DATABASE_URL, through the API's own
validation: ObjectId ids become 24-hex ids, _created and _updated are kept, _etag is recomputed,
GridFS files (bucket fs) become media, soft-deleted items stay hidden.

--from          a mongodump directory (<collection>.bson files), a mongoexport directory
                (<collection>.json, Extended JSON, fs.files and fs.chunks included), or the live
                database (mongodb://host/db); it is only read
--only          these collections only (comma-separated)
--drop-unknown  leave out top-level fields this API does not declare (listed in the report)
                instead of refusing the item

Items already in the store are left as they are, so a second run adds only what is missing.
Exit status 1 when any document was refused; the report names them (docs/mongodb.md).`;

export const BACKUP_USAGE = `usage: fleet backup <file>

Copies the store of DATABASE_URL into <file> (a new file) while servers run and write: the store
as it was at one instant, uploads included, one SQLite file checked (PRAGMA integrity_check)
before it is kept. Prints its size and the time taken. The secret key is not in the copy: keep the
key file (<data dir>/secret-key) or SECRET_KEY apart. fleet restore <file> puts it back.
On MongoDB, mongodump makes the backup (docs/backup.md).`;

export const RESTORE_USAGE = `usage: fleet restore <file>

With every server stopped: replaces the store of DATABASE_URL by the backup <file> (made by
fleet backup). The copy is checked first (PRAGMA integrity_check, a Fleet API store); the replaced
store is kept aside in <data dir>/replaced-<time>/. Refused while a server holds the store. The
secret key stays as it is: it must be the one the backup's secrets were sealed with.
On MongoDB, mongorestore restores (docs/backup.md).`;
