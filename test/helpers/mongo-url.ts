/** MongoDB URLs of the tests. */

/** `url` naming `database` instead of its own (hosts, credentials and options kept). */
export function databaseIn(url: string, database: string): string {
  const found = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/.exec(url);
  if (found === null) throw new Error('MONGO_URL must be a mongodb:// or mongodb+srv:// URL');
  return `${found[1] ?? ''}/${database}${found[2] ?? ''}`;
}
