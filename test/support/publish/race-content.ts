/** The JSON a race writer publishes: about `bytes` long and unique to `writer`. */
export function raceContent(writer: number, bytes: number): string {
  const filler = String(writer % 10).repeat(Math.max(0, bytes));
  return `${JSON.stringify({ seq: 1, writer, filler }, null, 2)}\n`;
}
