/**
 * The master port: what resources need from the master integration, the bodies its routes take
 * and answer, and its slot in the runtime's services (`master`). The server starts it when
 * SALT_API_URL is set (@fleet/salt implements it); without it, every route that needs the master
 * answers 503 saying how to configure it.
 */
import { ServiceUnavailable, type CallContext } from '@fleet/engine';
import { z } from 'zod';

/** The Salt clients the API proxies; the others (runner, wheel, ssh) administer the master itself. */
export const EXEC_CLIENTS = ['local', 'local_async', 'local_batch'] as const;
export type ExecClient = (typeof EXEC_CLIENTS)[number];

/** `module.function`, as Salt names execution functions (`cmd.run`, `state.apply`, `x509.create_csr`). */
export const SALT_FUNCTION = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/;

/** Credentials a body may not carry: the service calls the master with its own session. */
const CREDENTIALS = ['token', 'username', 'password', 'eauth'] as const;

/**
 * The execution request of the spec, validated by the engine before the route runs (422 naming
 * each field). The master service sets `client`, `tgt`, `tgt_type`, `full_return` and `raw`
 * itself, refuses with 403 a function EXEC_ALLOWED_FUNS leaves out, and passes the other salt-api
 * fields (`timeout`, `batch`, `ret`...) through.
 */
export const executionRequest = z
  .looseObject({
    exec_client: z.enum(EXEC_CLIENTS).describe('The Salt client, sent to salt-api as `client`'),
    fun: z.string().max(200).regex(SALT_FUNCTION).describe('The Salt function: module.function'),
    arg: z.array(z.unknown()).optional().describe('Positional arguments'),
    kwarg: z.record(z.string(), z.unknown()).optional().describe('Keyword arguments'),
    metadata: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Job metadata (the token name is added as fleet_user)'),
  })
  .superRefine((body, ctx) => {
    for (const key of CREDENTIALS)
      if (key in body)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'credentials are not accepted: the service uses its own salt-api session',
        });
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

/** An execution body as the engine parsed it. */
export type ExecutionBody = z.output<typeof executionRequest>;

/** The body of POST /hosts/{id}/all_status (spec: action start | stop | stop_all, optional). */
export const monitoringRequest = z.object({
  action: z
    .enum(['start', 'stop', 'stop_all'])
    .nullable()
    .optional()
    .describe('start / stop collecting for the host, stop_all for every host; absent: one sample now'),
});

/** What the monitoring service is asked to do for a checked POST /hosts/{id}/all_status body. */
export function monitoringAction(body: z.output<typeof monitoringRequest>): MonitoringAction {
  return body.action ?? 'once';
}

/** The execution request as the master service takes it (spec: execution proxying). */
export interface ExecutionRequest {
  /** Minion ids to target (one host, or every host of a group). */
  readonly targets: readonly string[];
  /** `host` sets `tgt` to the id; `group` sets `tgt` to the list and `tgt_type: list`. */
  readonly kind: 'host' | 'group';
  /** The checked body: `exec_client`, `fun`, `kwarg`, `arg`, and other salt-api fields passed through. */
  readonly body: ExecutionBody;
}

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

declare module '@fleet/engine' {
  interface Services {
    /** The master integration: set while the server runs with a master (SALT_API_URL). */
    master?: MasterService;
  }
}

/** The master service when the server runs with a master. */
export function masterIfRunning(ctx: Pick<CallContext, 'runtime'>): MasterService | undefined {
  return ctx.runtime.services.master;
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
