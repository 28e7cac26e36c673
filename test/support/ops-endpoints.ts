import assert from 'node:assert/strict';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';

/** What `/metrics` served, read by a Prometheus text-format parser. */
export interface Scrape {
  contentType: string;
  text: string;
  families: PrometheusFamily[];
}

/** GETs `/metrics` on the relay's metrics port and parses it as Prometheus would. */
export async function scrapeMetrics(port: number): Promise<Scrape> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  assert.equal(res.status, 200, 'GET /metrics answers 200');
  const text = await res.text();
  return {
    contentType: res.headers.get('content-type') ?? '',
    text,
    families: parsePrometheusTextFormat(text),
  };
}

/** GETs `/healthz`: its status and JSON body. */
export async function getHealth(
  port: number,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The family called `name`, or throws listing those there are. */
export function family(scrape: Scrape, name: string): PrometheusFamily {
  const found = scrape.families.find((f) => f.name === name);
  if (!found) {
    const names = scrape.families.map((f) => f.name).join(', ');
    throw new Error(`no metric ${name} in /metrics (have: ${names})`);
  }
  return found;
}

/** The value of the sample of `name` whose labels include `labels`; 0 when there is none. */
export function sampleValue(
  scrape: Scrape,
  name: string,
  labels: Record<string, string> = {},
): number {
  const sample = family(scrape, name).metrics.find((m) =>
    Object.entries(labels).every(([key, value]) => m.labels?.[key] === value),
  );
  return sample?.value === undefined ? 0 : Number(sample.value);
}

/** A histogram's count, sum and cumulative buckets (upper bound → count), in bound order. */
export function histogramOf(scrape: Scrape, name: string) {
  const found = family(scrape, name);
  assert.equal(found.type, 'HISTOGRAM', `${name} is a histogram`);
  const [sample] = found.metrics;
  assert.ok(sample?.buckets, `${name} has buckets`);
  const buckets = Object.entries(sample.buckets)
    .map(([le, count]) => [le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le), Number(count)])
    .sort((a, b) => (a[0] as number) - (b[0] as number)) as [number, number][];
  return { count: Number(sample.count), sum: Number(sample.sum), buckets };
}
