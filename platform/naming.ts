/**
 * GraphQL inputs arrive in camelCase; services take the spec's snake_case. Converting keys (not
 * values) keeps one validation schema for both transports; an explicit null means "not sent".
 */
export function snakeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, item]) => item !== undefined && item !== null)
        .map(([key, item]) => [key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`), snakeKeys(item)]),
    );
  }
  return value;
}

/**
 * GraphQL list arguments as the query string the REST path would send, so the service parses both
 * with one schema: unsent (null) arguments dropped, names renamed where the spec's differ, values
 * as strings.
 */
export function queryStringOf(
  args: Record<string, unknown>,
  renames: Record<string, string> = {},
): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    query[renames[name] ?? name] = String(value);
  }
  return query;
}
