/**
 * `fleet token create|list|revoke`: bearer tokens kept in the store (the `api_tokens` resource),
 * beside the configured API_TOKENS. A token is shown once, at creation; only its SHA-256 digest
 * is stored. Running servers read the stored tokens every TOKEN_REFRESH_S (stored-tokens.ts), so a
 * created or revoked token counts on every instance within that time, with no restart.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { formatHttpDate, isRole, systemContext, tokenDigest, type Role } from '@fleet/engine';
import { api_tokens, tokenNameProblem } from '@fleet/resources';
import { ConfigError } from '../config';
import { tokenGrants } from '../secrets';
import { withEngine, type CommandEngine } from './engine';
import type { CommandOutput } from './output';
import { TOKEN_USAGE } from './usage';

export { TOKEN_USAGE };

/** A new token: a prefix that names it as ours (for secret scanners), then 256 random bits. */
function newToken(): string {
  return `flt_${randomBytes(32).toString('base64url')}`;
}

/** The names of the tokens that are not stored: API_TOKENS, or the generated admin token if there is one. */
function configuredNames(opened: CommandEngine): { name: string; role: Role; source: string }[] {
  if (opened.config.API_TOKENS)
    return tokenGrants(opened.config.API_TOKENS, opened.dataDir).grants.map((g) => ({
      name: g.name,
      role: g.role,
      source: 'API_TOKENS',
    }));
  return existsSync(join(opened.dataDir, 'admin-token'))
    ? [{ name: 'admin', role: 'admin', source: 'admin-token file' }]
    : [];
}

function parse(argv: readonly string[]): { action: string; name: string | undefined; role: string } {
  let values: { role?: string | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: { role: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (err) {
    throw new ConfigError(`token: ${err instanceof Error ? err.message : String(err)}\n${TOKEN_USAGE}`);
  }
  const [action = '', name, ...extra] = positionals;
  if (!['create', 'list', 'revoke'].includes(action) || extra.length > 0)
    throw new ConfigError(`token: say create, list or revoke\n${TOKEN_USAGE}`);
  if (action !== 'list' && name === undefined)
    throw new ConfigError(`token ${action}: name the token\n${TOKEN_USAGE}`);
  if (values.role !== undefined && action !== 'create')
    throw new ConfigError(`token ${action}: --role is for create\n${TOKEN_USAGE}`);
  // Checked before the store is opened: the rule's sentence, not a validation summary.
  const problem = action === 'create' && name !== undefined ? tokenNameProblem(name) : null;
  if (problem !== null) throw new ConfigError(`token create: ${problem}`);
  return { action, name, role: values.role ?? 'viewer' };
}

async function create(opened: CommandEngine, name: string, role: string): Promise<CommandOutput> {
  if (!isRole(role))
    throw new ConfigError(`token create: --role must be viewer, operator or admin (got "${role}")`);
  if (configuredNames(opened).some((t) => t.name === name))
    throw new ConfigError(`token create: "${name}" names a configured token; choose another name`);
  const { engine } = opened;
  const tokens = engine.runtime.resources.of(api_tokens);
  const ctx = systemContext(engine.runtime);
  const [existing] = await tokens.find({ where: { name }, limit: 1 }, ctx);
  if (existing)
    throw new ConfigError(
      `token create: a token named "${name}" exists${existing.revoked ? ' (revoked)' : ''}; choose another name`,
    );
  const token = newToken();
  await tokens.create({ name, role, digest: tokenDigest(token) }, ctx);
  return {
    stdout: `${token}\n`,
    stderr: `Created the ${role} token "${name}": it is shown once, above; keep it now. Running servers accept it within ${opened.config.TOKEN_REFRESH_S} s.\n`,
  };
}

async function list(opened: CommandEngine): Promise<CommandOutput> {
  const stored = await opened.engine.runtime.resources
    .of(api_tokens)
    .find({ sort: [['name', 1]] }, systemContext(opened.engine.runtime));
  const rows = [
    ['NAME', 'ROLE', 'SOURCE', 'CREATED', 'REVOKED'],
    ...configuredNames(opened).map((t) => [t.name, t.role, t.source, '-', '-']),
    ...stored.map((t) => [
      t.name,
      t.role,
      'store',
      formatHttpDate(t._created),
      t.revoked ? formatHttpDate(t.revoked) : '-',
    ]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return {
    stdout:
      rows
        .map((r) =>
          r
            .map((cell, i) => cell.padEnd(widths[i] ?? 0))
            .join('  ')
            .trimEnd(),
        )
        .join('\n') + '\n',
  };
}

async function revoke(opened: CommandEngine, name: string): Promise<CommandOutput> {
  if (configuredNames(opened).some((t) => t.name === name)) {
    throw new ConfigError(
      `token revoke: "${name}" is configured, not stored: remove it from API_TOKENS (or the admin-token file) and restart`,
    );
  }
  const { engine } = opened;
  const tokens = engine.runtime.resources.of(api_tokens);
  const ctx = systemContext(engine.runtime);
  const [found] = await tokens.find({ where: { name }, limit: 1 }, ctx);
  if (!found)
    throw new ConfigError(`token revoke: there is no stored token named "${name}" (fleet token list)`);
  if (found.revoked)
    return { stdout: `The token "${name}" was already revoked on ${formatHttpDate(found.revoked)}.\n` };
  await tokens.patch(found._id, { revoked: ctx.now }, ctx, { ifMatch: found._etag });
  return {
    stdout: `Revoked the token "${name}": running servers refuse it within ${opened.config.TOKEN_REFRESH_S} s.\n`,
  };
}

/** Runs `fleet token ...` against the store of `env`'s DATABASE_URL. */
export async function tokenCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<CommandOutput> {
  const { action, name, role } = parse(argv);
  return withEngine(env, async (opened) => {
    if (action === 'create') return create(opened, name ?? '', role);
    if (action === 'revoke') return revoke(opened, name ?? '');
    return list(opened);
  });
}
