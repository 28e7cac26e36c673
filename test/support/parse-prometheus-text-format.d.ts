// Types for the parser the tests read /metrics with (the package ships none).
declare module 'parse-prometheus-text-format' {
  /** One sample of a counter, gauge or untyped metric, or one histogram or summary. */
  export interface PrometheusSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  /** One metric family: its `# HELP`, `# TYPE` and samples. */
  export interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusSample[];
  }
  /** Parses the Prometheus text exposition format; throws on a line it cannot read. */
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
