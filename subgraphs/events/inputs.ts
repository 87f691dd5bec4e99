/**
 * The inputs of events' rules, named once: routes and resolvers build them from the request; each
 * rule parses the raw `query` or `body` with its own schema.
 */

/** A list read, with the raw query string. */
export interface ListInput {
  query: unknown;
}

/** A command with the raw body and the Idempotency-Key, if one was sent. */
export interface CommandInput {
  body: unknown;
  idempotencyKey: string | undefined;
}
