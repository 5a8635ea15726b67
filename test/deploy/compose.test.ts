/**
 * The production files against the README's configuration table: every variable the server reads
 * has a row; docker-compose.yml passes every row's variable through to the API (those it sets
 * itself aside) and `.env.example` names each one; the compose file's promises hold: MongoDB
 * with authentication (keyfile and users from the environment, required), the API published on
 * 127.0.0.1 unless told otherwise, restart policies and log limits on every service.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CONFIG_VARIABLES } from '../../packages/server/src/config';

const ROOT = join(__dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The variables of the README's configuration table, in its order. */
function tableVariables(): string[] {
  const readme = read('README.md');
  const start = readme.indexOf('## Configuration');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) =>
      [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1] ?? ''),
    );
}

/** The variables `.env.example` sets (`NAME=`), in its order. */
function exampleVariables(): string[] {
  return read('.env.example')
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

interface Service {
  image?: string;
  build?: unknown;
  entrypoint?: string[];
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  restart?: string;
  logging?: { driver?: string; options?: Record<string, string> };
  healthcheck?: { test?: string[] };
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const api = compose.services.api ?? {};
const mongo = compose.services.mongo ?? {};

/** Variables the compose file sets for the API itself, and one only a command reads. */
const SET_BY_COMPOSE = ['DATABASE_URL', 'PORT', 'HOST'];
const COMMAND_ONLY = ['NEW_SECRET_KEY'];

describe('the configuration table', () => {
  it('has a row for every variable the server reads', () => {
    const rows = new Set(tableVariables());
    expect(CONFIG_VARIABLES.filter((name) => !rows.has(name))).toEqual([]);
  });

  it('is in .env.example, every variable once', () => {
    const example = exampleVariables();
    expect(example.filter((name, i) => example.indexOf(name) !== i)).toEqual([]);
    expect(tableVariables().filter((name) => !example.includes(name))).toEqual([]);
  });

  it('passes through docker-compose.yml to the API, from .env', () => {
    const env = api.environment ?? {};
    for (const name of tableVariables()) {
      if (COMMAND_ONLY.includes(name)) continue;
      expect({ name, set: name in env }).toEqual({ name, set: true });
      if (!SET_BY_COMPOSE.includes(name))
        expect({ name, value: env[name] }).toEqual({ name, value: `\${${name}:-}` });
    }
  });

  it('has every variable docker-compose.yml reads in .env.example', () => {
    const used = new Set(
      [...read('docker-compose.yml').matchAll(/\$\{([A-Z][A-Z0-9_]*)[:}?-]/g)].map((m) => m[1] ?? ''),
    );
    const example = new Set(exampleVariables());
    expect([...used].filter((name) => !example.has(name))).toEqual([]);
  });
});

describe('docker-compose.yml', () => {
  it('runs MongoDB with authentication: a keyfile and users from the environment, required', () => {
    const script = (mongo.entrypoint ?? []).join(' ');
    expect(script).toContain('--keyFile /data/configdb/keyfile');
    // `$$` is compose's escape: the container's shell reads the variable.
    expect(script).toContain('"$$MONGO_REPLICA_KEY" > /data/configdb/keyfile');
    expect(script).toContain('exec docker-entrypoint.sh mongod --replSet rs0');
    const env = mongo.environment ?? {};
    expect(env.MONGO_INITDB_ROOT_PASSWORD).toMatch(/^\$\{MONGO_ROOT_PASSWORD:\?/);
    expect(env.MONGO_REPLICA_KEY).toMatch(/^\$\{MONGO_REPLICA_KEY:\?/);
    expect(env.FLEET_DB_PASSWORD).toMatch(/^\$\{FLEET_DB_PASSWORD:\?/);
    expect(mongo.volumes).toContain(
      './deploy/mongo/create-api-user.js:/docker-entrypoint-initdb.d/10-create-api-user.js:ro',
    );
    expect(read('deploy/mongo/create-api-user.js')).toContain("roles: [{ role: 'readWrite', db: name }]");
    // The API connects as its own user, to its own database, on the replica set.
    expect(api.environment?.DATABASE_URL).toBe(
      'mongodb://${FLEET_DB_USER:-fleet}:${FLEET_DB_PASSWORD:?set FLEET_DB_PASSWORD in .env}@mongo:27017/${FLEET_DB_NAME:-fleet}?replicaSet=rs0&authSource=${FLEET_DB_NAME:-fleet}',
    );
  });

  it('publishes the API and MongoDB on 127.0.0.1 unless told otherwise', () => {
    expect(api.ports).toEqual(['${API_BIND:-127.0.0.1}:${API_PORT:-5000}:5000']);
    expect(mongo.ports).toEqual(['127.0.0.1:${MONGO_PORT:-27017}:27017']);
  });

  it('restarts every service and bounds its logs', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect({ name, restart: service.restart }).toEqual({ name, restart: 'unless-stopped' });
      expect({ name, logging: service.logging }).toEqual({
        name,
        logging: { driver: 'json-file', options: { 'max-size': '10m', 'max-file': '5' } },
      });
    }
  });
});
