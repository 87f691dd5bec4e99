import type { AccessRule } from '../../platform/auth.ts';

/** Scopes and roles of the events document. */
export const ACCESS = {
  read: { scopes: ['events:read'] },
  write: { scopes: ['events:write'] },
  registerSource: { anyOf: [{ scopes: ['events:sources:write'] }, { anyRole: ['approved_source', 'operator'] }] },
} satisfies Record<string, AccessRule>;
