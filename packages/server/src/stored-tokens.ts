/**
 * Stored tokens (`fleet token create|revoke`, the `api_tokens` resource) kept current in the
 * authenticator. Every TOKEN_REFRESH_S the instance reads the tokens not revoked — a few rows,
 * through the local API — and swaps them into the authenticator's one map in a single step. A
 * request never waits for the store: it costs one digest and one map lookup, as configured tokens
 * do, and a token created or revoked by any instance (or by the CLI) counts everywhere within
 * one refresh. When a read fails the last set stays in force and the failure is logged; the next
 * refresh tries again.
 */
import { systemContext, type ReloadableAuthenticator, type Role, type Runtime } from '@fleet/engine';
import { api_tokens } from '@fleet/resources';
import type { Logger } from 'pino';

export interface StoredTokenOptions {
  readonly runtime: Runtime;
  readonly authenticator: ReloadableAuthenticator;
  readonly intervalMs: number;
  readonly log: Logger;
}

/** The refresh loop; `stop` waits for a read in flight, so the store can close after it. */
export interface StoredTokens {
  /** Reads the tokens now (the loop does it on its own). */
  refresh(): Promise<void>;
  stop(): Promise<void>;
}

/** Loads the stored tokens once (before the server listens), then every `intervalMs`. */
export async function startStoredTokens(options: StoredTokenOptions): Promise<StoredTokens> {
  const tokens = options.runtime.resources.of(api_tokens);
  const refresh = async (): Promise<void> => {
    const docs = await tokens.find(
      { where: { revoked: null }, projection: { name: 1, role: 1, digest: 1 } },
      systemContext(options.runtime),
    );
    options.authenticator.replaceStored(
      docs.map((d) => ({ name: d.name, role: d.role satisfies Role, digest: d.digest })),
    );
  };
  await refresh();
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    // A slow store never stacks reads: the next tick starts once this one is done.
    running ??= refresh()
      .catch((err: unknown) => {
        options.log.warn(
          { err: err instanceof Error ? err.message : String(err) },
          'stored tokens: refresh failed; the last set stays in force',
        );
      })
      .finally(() => {
        running = undefined;
      });
  }, options.intervalMs);
  timer.unref();
  return {
    refresh,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
