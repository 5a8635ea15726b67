/**
 * Scrapes a metrics listener and parses its Prometheus text with a Prometheus text parser
 * (parse-prometheus-text-format, which throws on a malformed line). That parser folds the
 * buckets of a labelled histogram into one sample and drops its labels, so a histogram's counts
 * by label are read from its `_count` series, parsed by the same parser as a family of their own.
 */
import { request } from 'node:http';
import parsePrometheusTextFormat, { type Family, type Sample } from 'parse-prometheus-text-format';

/** A scrape: its raw text and its families by name. */
export interface Scrape {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  readonly families: ReadonlyMap<string, Family>;
}

/** GET http://127.0.0.1:<port>/metrics, parsed. */
export function scrape(port: number, path = '/metrics'): Promise<Scrape> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        const families = res.statusCode === 200 ? parsePrometheusTextFormat(text) : [];
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          text,
          families: new Map(families.map((f) => [f.name, f])),
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The samples of `name` whose labels include `labels`. */
export function samples(s: Scrape, name: string, labels: Readonly<Record<string, string>> = {}): Sample[] {
  return (s.families.get(name)?.metrics ?? []).filter((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
  );
}

/** The `_count` series of histogram `name`, one sample per label set. */
function histogramCounts(s: Scrape, name: string): readonly Sample[] {
  const lines = s.text
    .split('\n')
    .filter((l) => l.startsWith(`${name}_count{`) || l.startsWith(`${name}_count `));
  const [family] = parsePrometheusTextFormat(`# TYPE ${name}_count counter\n${lines.join('\n')}\n`);
  return family?.metrics ?? [];
}

/** The sum of the matching samples' values (a counter's or gauge's) or counts (a histogram's). */
export function total(s: Scrape, name: string, labels: Readonly<Record<string, string>> = {}): number {
  const all = s.families.get(name)?.type === 'HISTOGRAM' ? histogramCounts(s, name) : samples(s, name);
  return all
    .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((sum, m) => sum + Number(m.value ?? 0), 0);
}
