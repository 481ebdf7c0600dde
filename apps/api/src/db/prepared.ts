/**
 * A named statement built at its first run rather than when its service is made: building a
 * drizzle select of several joins costs milliseconds of processor, which start-up then does not
 * pay before the first answer (docs/benchmarks.md, *Start-up*). Then the same statement each time.
 */
export function preparedOnUse<P extends { execute: (placeholders?: Record<string, unknown>) => unknown }>(
  build: () => P,
): Pick<P, 'execute'> {
  let statement: P | undefined;
  return { execute: ((placeholders?: Record<string, unknown>) => (statement ??= build()).execute(placeholders)) as P['execute'] };
}
