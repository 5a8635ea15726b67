/** A Log that keeps every line as `<level> <message> <json>` so tests can assert what was logged. */
import type { Log } from '@fleet/engine';

export function capturingLog(): { log: Log; lines: string[] } {
  const lines: string[] = [];
  const keep = (level: string) => (o: object, m?: string) =>
    void lines.push(`${level} ${m ?? ''} ${JSON.stringify(o)}`);
  return {
    log: { info: keep('info'), warn: keep('warn'), error: keep('error'), debug: () => undefined },
    lines,
  };
}
