/**
 * The client's public types: the VPN manager it talks to, its options, and the records of
 * the VPN server (Pritunl) as the API returns them (pritunl/handlers/org.py, user.py, server.py; `dict()` of each record).
 */
import type { AccountRecord, OrganizationRecord, PortForward } from '@fleet/resources';
import type { Log, PrivateAddresses } from '@fleet/engine';

/**
 * One VPN manager, as the `vpn_managers` resource stores it. The API is served by
 * pritunl-web at the address of the web console (the proxy on 443 serves both the
 * console and the API), so the client uses `dashboard_address`; `server_address` is the VPN
 * endpoint hosts connect to and is not used for API calls.
 */
export interface VpnManager {
  name: string;
  dashboard_address: string;
  server_address?: string;
  username: string;
  password: string;
}

/** Per-kind time limits in milliseconds. */
export interface VpnTimeouts {
  /** `POST /auth/session` + `GET /state` (the server sleeps and hashes 100k rounds). Default 15 s. */
  login: number;
  /** Reads, user writes, deletes. Default 15 s. */
  request: number;
  /** `POST /organization` generates a 4096-bit RSA CA synchronously (pritunl/handlers/org.py). Default 60 s. */
  createOrganization: number;
  /** Profile downloads. Default 30 s. */
  download: number;
}

export interface VpnClientOptions {
  manager: VpnManager;
  /** Defaults to a silent log. Lines never carry the password, cookies, CSRF token or bodies. */
  log?: Log;
  timeouts?: Partial<VpnTimeouts>;
  /** For the self-signed certificate Pritunl ships: a CA to trust, or (not advised) no verification. */
  tls?: { ca?: string | Buffer; rejectUnauthorized?: boolean };
  /**
   * Whether the server may be at a private address (default `allow`). A link-local address (cloud
   * metadata) is always refused, whether written in `dashboard_address` or resolved from its name.
   */
  privateAddresses?: PrivateAddresses;
  /**
   * Logins this client allows itself per window (default 10 per 600 s). The server refuses
   * more than 30 per administrator per 600 s (limiter.auth_check), which would also lock out
   * people using the same administrator; past the budget calls fail without a login.
   */
  loginBudget?: { max: number; windowMs: number };
  /** Told of every call's end (metrics): the manager's name, the call, its outcome and time. Must not throw. */
  onCall?: (call: VpnCallOutcome) => void;
}

/** One finished VPN server call as `onCall` sees it. */
export interface VpnCallOutcome {
  readonly manager: string;
  /** Method and path with ids cut: `GET /user/:id`. */
  readonly call: string;
  /** `ok` for an answer below 400, else `error` (a refusal, a timeout, no answer). */
  readonly outcome: 'ok' | 'error';
  readonly ms: number;
}

/**
 * `Organization.dict()` (pritunl/handlers/org.py): field for field the record the store keeps, declared once by
 * the port. `expiration` only on servers since Sept 2025.
 */
export type VpnOrganization = OrganizationRecord;

/** A port forward of a user (strings, as the server keeps them). */
export type VpnPortForward = PortForward;

/**
 * `User.dict()` (pritunl/user/user.py): the record the store keeps, and what only reads add: `network_links`
 * (`GET /user/...`) and `last_active` (newer servers). `otp_secret` is a secret.
 */
export interface VpnUser extends AccountRecord {
  network_links?: string[];
  last_active?: number | null;
}

/** Fields a create or an update may set. Names and emails are filtered by the server (`filterName`). */
export interface VpnUserFields {
  name: string;
  email: string | null;
  groups: string[];
  disabled: boolean;
  auth_type: string;
  yubico_id: string | null;
  bypass_secondary: boolean;
  client_to_client: boolean;
  mac_addresses: string[] | null;
  dns_servers: string[] | null;
  dns_suffix: string | null;
  port_forwarding: VpnPortForward[];
  network_links: string[];
  /** A new PIN (digits, at least 6); `null` clears it. Omitted on update: kept. */
  pin: string | null;
}

export type VpnUserInput = Pick<VpnUserFields, 'name'> & Partial<VpnUserFields>;
export type VpnUserChanges = Partial<VpnUserFields>;

/** A server (the subset the client reads). */
export interface VpnServer {
  id: string;
  name: string;
  status: string;
}

/** One OpenVPN profile of a user: a `<org>_<user>_<server>.ovpn` file. */
export interface VpnProfileFile {
  name: string;
  content: string;
}

/** A user's client profile: the server's `.tar` and the `.ovpn` files in it (one per attached server). */
export interface VpnProfile {
  filename: string;
  archive: Buffer;
  files: VpnProfileFile[];
}

/** What a delete found: it removed the item, or the item was already gone. */
export type DeleteOutcome = 'deleted' | 'absent';
