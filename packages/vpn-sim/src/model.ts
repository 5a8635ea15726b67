/**
 * The simulator's data: administrators with their sessions, organizations, users and servers,
 * shaped as Pritunl stores them (pritunl/handlers/auth.py, pritunl/handlers/org.py, pritunl/handlers/user.py, pritunl/handlers/, pritunl/utils/, pritunl/handlers/server.py), plus a clock tests can move and seeded id and
 * secret generators so the same seed always yields the same ids.
 */
import { createRng, type Rng } from '@fleet/fixtures';

/** An administrator (pritunl/auth/administrator.py). */
export interface SimAdmin {
  id: string;
  username: string;
  password: string;
  disabled: boolean;
  /** `otp_auth`: a login without `otp_code` answers 402 (handlers/auth.py). */
  otpAuth: boolean;
  /** The one code the simulator accepts when `otpAuth` is on. */
  otpCode: string | undefined;
  default: boolean;
  /** Session ids, newest last, capped at `session_limit` (pritunl/handlers/auth.py, pritunl/auth/). */
  sessions: string[];
  /** `auth_api` with its token and secret: enables HMAC token auth (pritunl/handlers/auth.py). */
  api: { token: string; secret: string } | undefined;
}

/** An organization (pritunl/organization/organization.py). */
export interface SimOrg {
  id: string;
  name: string;
  auth_api: boolean;
  auth_token: string | null;
  auth_secret: string | null;
  /** The CA's notAfter, `str(datetime)` (pritunl/handlers/org.py: added Sept 2025). */
  expiration: string;
}

export interface PortForward {
  protocol: string;
  port: string;
  dport: string;
}

/** A user (pritunl/user/user.py); `type` is `client` or `server`. */
export interface SimUser {
  id: string;
  orgId: string;
  name: string;
  email: string | null;
  groups: string[];
  /** The PIN as set (the server keeps a hash; only `bool(pin)` is ever shown). */
  pin: string | null;
  type: 'client' | 'server';
  auth_type: string;
  yubico_id: string | null;
  otp_secret: string;
  disabled: boolean;
  bypass_secondary: boolean;
  client_to_client: boolean;
  mac_addresses: string[] | null;
  dns_servers: string[] | null;
  dns_suffix: string | null;
  port_forwarding: PortForward[];
  network_links: string[];
}

/** A VPN server (pritunl/server); organizations are attached to it (pritunl/handlers/server.py). */
export interface SimServer {
  id: string;
  name: string;
  status: 'online' | 'offline';
  port: number;
  protocol: 'udp' | 'tcp';
  groups: string[];
  organizations: string[];
}

export interface SimSession {
  adminId: string;
  sessionId: string;
  loginAtMs: number;
}

/** Everything the simulated server holds; tests read it to check what really happened. */
export interface SimState {
  readonly admins: Map<string, SimAdmin>;
  readonly organizations: Map<string, SimOrg>;
  readonly users: Map<string, SimUser>;
  readonly servers: Map<string, SimServer>;
  /** `session` cookie value -> the Flask session it stands for. */
  readonly sessions: Map<string, SimSession>;
  /** `token` cookie value (pritunl-web >= 1.32.4465) -> its expiry. */
  readonly tokens: Map<string, { adminId: string; expiresAtMs: number }>;
  /** CSRF tokens, bound to the administrator, not to the session (auth/csrf.py). */
  readonly csrf: Map<string, string>;
  /** `auth_limiter` documents per administrator (limiter.auth_check). */
  readonly limiter: Map<string, { count: number; startMs: number }>;
  /** `(token, nonce)` pairs already used, with when (pritunl/handlers/auth.py). */
  readonly nonces: Map<string, number>;
}

/** Seeded generators for ids and secrets. */
export interface Gen {
  /** A 24-hex ObjectId-like id. */
  id(): string;
  /** `utils.generate_secret()`: 32 alphanumeric characters. */
  secret(): string;
  /** `otp_secret`: 16 characters of base32 (`A-Z2-7`, pritunl/user/user.py). */
  otpSecret(): string;
  /** Deterministic bytes (fake key material in profiles). */
  bytes(n: number): Buffer;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function pickString(rng: Rng, alphabet: string, n: number): string {
  let out = '';
  for (let i = 0; i < n; i += 1) out += alphabet[rng.int(0, alphabet.length - 1)] ?? 'A';
  return out;
}

/** Generators drawing from one seeded PRNG. */
export function createGen(seed: number): Gen {
  const rng = createRng(seed);
  return {
    id: () => rng.hex(24),
    secret: () => pickString(rng, ALNUM, 32),
    otpSecret: () => pickString(rng, BASE32, 16),
    bytes: (n) => rng.bytes(n),
  };
}

/** An empty state. */
export function emptyState(): SimState {
  return {
    admins: new Map(),
    organizations: new Map(),
    users: new Map(),
    servers: new Map(),
    sessions: new Map(),
    tokens: new Map(),
    csrf: new Map(),
    limiter: new Map(),
    nonces: new Map(),
  };
}

/** A clock tests can move forward (session expiry, limiter window) without waiting. */
export interface Clock {
  now(): number;
  advance(ms: number): void;
}

export function createClock(): Clock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** Python's `str(datetime)` without microseconds: `YYYY-MM-DD HH:MM:SS` (utils/json_helpers.py). */
export function pyDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}
