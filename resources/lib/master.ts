/**
 * What resources need from the master integration, looked up in the runtime's services under
 * `master`. The server registers it when SALT_API_URL is set; without it, every route that needs
 * the master answers 503 saying how to configure it.
 */
import { ServiceUnavailable, type CallContext } from '@fleet/engine';

/** The execution request as the API receives it (spec: execution proxying). */
export interface ExecutionRequest {
  /** Minion ids to target (one host, or every host of a group). */
  readonly targets: readonly string[];
  /** `host` sets `tgt` to the id; `group` sets `tgt` to the list and `tgt_type: list`. */
  readonly kind: 'host' | 'group';
  /** The body: `exec_client`, `fun`, `kwarg`, `arg`, and other salt-api fields passed through. */
  readonly body: Readonly<Record<string, unknown>>;
}

/** The execution response of the spec. */
export interface ExecutionResponse {
  readonly task_id: string;
  readonly status: string;
  readonly return: { readonly return: readonly Record<string, unknown>[] };
}

export interface MasterService {
  execute(request: ExecutionRequest, ctx: CallContext): Promise<ExecutionResponse>;
  /** Lists `patches/` on the master's file server and upserts each patch by name. */
  downloadPatches(ctx: CallContext): Promise<{ readonly created: number; readonly updated: number; readonly names: readonly string[] }>;
  /** Starts or stops periodic `status.all_status` collection for a host (or all, `stop_all`). */
  monitoring(hostId: string, action: 'start' | 'stop' | 'stop_all', ctx: CallContext): Promise<Record<string, unknown>>;
  /** Runs the fleet sync now (admin endpoint). */
  syncNow(ctx: CallContext): Promise<Record<string, unknown>>;
}

/** The master service, or 503 when the server runs without a master. */
export function master(ctx: CallContext): MasterService {
  const service = ctx.runtime.services.get('master') as MasterService | undefined;
  if (!service) throw new ServiceUnavailable('No master is configured: set SALT_API_URL, SALT_API_USER and SALT_API_PASSWORD');
  return service;
}
