/** Types of the Prometheus text parser the metrics tests use (the package ships none). */
declare module 'parse-prometheus-text-format' {
  /** One sample: a counter's or gauge's value, or a histogram's buckets, count and sum. */
  export interface Sample {
    readonly value?: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly buckets?: Readonly<Record<string, string>>;
    readonly count?: string;
    readonly sum?: string;
  }
  /** One metric family. */
  export interface Family {
    readonly name: string;
    readonly help: string;
    readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    readonly metrics: readonly Sample[];
  }
  export default function parsePrometheusTextFormat(text: string): Family[];
}
