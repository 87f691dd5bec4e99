/**
 * The inputs of content's rules, named once: routes and resolvers build them from the path, the
 * query string and the body; each rule parses the raw `query` or `body` with its own schema.
 */

/** One item, named by its content id. */
export interface ItemKey {
  contentId: string;
}

/** Many items at once, for loaders. */
export interface ItemKeys {
  contentIds: readonly string[];
}

/** One exact version of an item. */
export interface VersionKey extends ItemKey {
  versionId: string;
}

/** Many exact versions at once, for loaders. */
export interface VersionKeys {
  versionIds: readonly string[];
}

/** A read about one item, with the raw query string. */
export interface ItemRead extends ItemKey {
  query: unknown;
}

/** A read about one exact version, with the raw query string. */
export interface VersionRead extends VersionKey {
  query: unknown;
}

/** A write to one item, with the raw body. */
export interface ItemWrite extends ItemKey {
  body: unknown;
}

/** A read of a tenant-wide list, with the raw query string. */
export interface ListRead {
  query: unknown;
}

/** A write not addressed to one item, with the raw body. */
export interface BodyWrite {
  body: unknown;
}
