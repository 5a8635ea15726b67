/**
 * What resources need from the master integration, looked up in the runtime's services under
 * `master`. The server registers it when SALT_API_URL is set; without it, every route that needs
 * the master answers 503 saying how to configure it.
 */
import {
  BadRequest,
  isPlainObject,
  ServiceUnavailable,
  Unprocessable,
  type CallContext,
} from '@fleet/engine';
import { z } from 'zod';
import { lookupService, type MethodNames } from './service';

/** The execution request as the API receives it (spec: execution proxying). */
export interface ExecutionRequest {
  /** Minion ids to target (one host, or every host of a group). */
  readonly targets: readonly string[];
  /** `host` sets `tgt` to the id; `group` sets `tgt` to the list and `tgt_type: list`. */
  readonly kind: 'host' | 'group';
  /** The body: `exec_client`, `fun`, `kwarg`, `arg`, and other salt-api fields passed through. */
  readonly body: Readonly<Record<string, unknown>>;
}

/**
 * The execution request of the spec, as the master integration checks it
 * (packages/salt/src/master/request.ts: 422 for a client or function it does not proxy, 403 for
 * one EXEC_ALLOWED_FUNS leaves out); other salt-api fields (`timeout`, `batch`, `ret`...) pass
 * through. Described only: the routes take the body as it came (lib/documented.ts).
 */
export const executionRequest = z
  .looseObject({
    exec_client: z
      .enum(['local', 'local_async', 'local_batch'])
      .describe('The Salt client, sent to salt-api as `client`'),
    fun: z
      .string()
      .max(200)
      .regex(/^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/)
      .describe('The Salt function: module.function'),
    arg: z.array(z.unknown()).optional().describe('Positional arguments'),
    kwarg: z.record(z.string(), z.unknown()).optional().describe('Keyword arguments'),
    metadata: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Job metadata (the token name is added as fleet_user)'),
  })
  .describe(
    'tgt, tgt_type, client and full_return are set by the service; credentials (token, username, password, eauth) are refused',
  )
  .meta({
    examples: [
      { exec_client: 'local', fun: 'cmd.run', kwarg: { cmd: 'uptime' } },
      { exec_client: 'local_async', fun: 'state.apply', arg: ['patches.openssl'] },
    ],
  });

/** The body of POST /hosts/{id}/all_status (spec: action start | stop | stop_all, optional). */
export const monitoringRequest = z.object({
  action: z
    .enum(['start', 'stop', 'stop_all'])
    .nullable()
    .optional()
    .describe('start / stop collecting for the host, stop_all for every host; absent: one sample now'),
});

/** The execution response of the spec, as a schema (it feeds the OpenAPI document). */
export const executionResponse = z.object({
  task_id: z.string().describe('The job id (jid)'),
  status: z
    .enum(['success', 'partial', 'failed'])
    .describe('success: every target answered; partial: some did not; failed: none did'),
  return: z.object({
    return: z
      .array(z.record(z.string(), z.unknown()))
      .describe('One object per answer: host name -> its output'),
  }),
});

/** The execution response of the spec. */
export interface ExecutionResponse {
  readonly task_id: string;
  readonly status: string;
  readonly return: { readonly return: readonly Record<string, unknown>[] };
}

/**
 * What POST /hosts/{id}/all_status does: `start` / `stop` periodic collection for the host,
 * `stop_all` for every host; without an `action` (`once`) one sample is taken and returned.
 */
export type MonitoringAction = 'start' | 'stop' | 'stop_all' | 'once';

/** What POST /hosts/{id}/all_status answers (a sample, or the monitoring state). */
export const monitoringResponse = z.record(z.string(), z.unknown());

/** What POST /updates answers. */
export const patchDownloadResponse = z.object({
  _status: z.literal('OK'),
  created: z.number().int(),
  updated: z.number().int(),
  names: z.array(z.string()),
});

/** What POST /master/sync answers: the sync report. */
export const syncResponse = z.object({ _status: z.literal('OK') }).catchall(z.unknown());

/** The result of a patch download. */
export interface PatchDownload {
  readonly created: number;
  readonly updated: number;
  /** Every patch name listed by the master (created, updated or unchanged). */
  readonly names: readonly string[];
}

/** One host's outward address as the resolver saw it, or why it could not be learnt. */
export type OutwardAnswer =
  { readonly host: string; readonly address: string } | { readonly host: string; readonly error: string };

/** What `outwardAddresses` asks (POST /api/graph `request_ips`). */
export interface OutwardRequest {
  /** Minion ids to probe (accepted keys). */
  readonly hosts: readonly string[];
  /** The resolver: an http(s) URL that answers the caller's address as plain text. */
  readonly resolver: string;
  /** Called after each batch with its answers, in order; the next batch waits for it (progress, writes). */
  readonly onBatch?: (answers: readonly OutwardAnswer[]) => Promise<void>;
}

export interface MasterService {
  execute(request: ExecutionRequest, ctx: CallContext): Promise<ExecutionResponse>;
  /** Lists `patches/` on the master's file server and upserts each patch by name. */
  downloadPatches(ctx: CallContext): Promise<PatchDownload>;
  /** Starts or stops periodic `status.all_status` collection for a host (or all, `stop_all`). */
  monitoring(hostId: string, action: MonitoringAction, ctx: CallContext): Promise<Record<string, unknown>>;
  /** Runs the fleet sync now (admin endpoint). */
  syncNow(ctx: CallContext): Promise<Record<string, unknown>>;
  /**
   * Each host fetches `resolver` (an HTTP GET run on the minion through the master, in batches)
   * and answers the address it was seen from. A host that fails is an answer with `error`; a
   * master failure rejects (502/503/504) and stops the remaining batches.
   */
  outwardAddresses(request: OutwardRequest, ctx: CallContext): Promise<readonly OutwardAnswer[]>;
}

const MASTER_METHODS: MethodNames<MasterService> = {
  execute: true,
  downloadPatches: true,
  monitoring: true,
  syncNow: true,
  outwardAddresses: true,
};

/** The master service when the server runs with a master. */
export function masterIfRunning(ctx: Pick<CallContext, 'runtime'>): MasterService | undefined {
  return lookupService(ctx, 'master', MASTER_METHODS);
}

/** The master service, or 503 when the server runs without a master. */
export function master(ctx: CallContext): MasterService {
  const service = masterIfRunning(ctx);
  if (!service)
    throw new ServiceUnavailable(
      'No master is configured: set SALT_API_URL, SALT_API_USER and SALT_API_PASSWORD',
    );
  return service;
}

/** A request body that must be a JSON object (execution proxying, monitoring). */
export function jsonBody(body: unknown): Readonly<Record<string, unknown>> {
  if (body === undefined || body === null) return {};
  if (!isPlainObject(body)) throw new BadRequest('The body must be a JSON object');
  return body;
}

const MONITORING_ACTIONS: readonly MonitoringAction[] = ['start', 'stop', 'stop_all'];

/** The `action` of POST /hosts/{id}/all_status (spec: start, stop or stop_all; optional). */
export function monitoringAction(body: unknown): MonitoringAction {
  const action = jsonBody(body).action;
  if (action === undefined || action === null) return 'once';
  const known = MONITORING_ACTIONS.find((a) => a === action);
  if (known === undefined)
    throw new Unprocessable('all_status: unknown action', { action: 'must be start, stop or stop_all' });
  return known;
}
