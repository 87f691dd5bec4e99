import type { AccessRule } from '../../platform/auth.ts';

/** Scopes of the curriculum document: R, W and I. */
export const ACCESS = {
  read: { scopes: ['curriculum:read'] },
  write: { scopes: ['curriculum:write'] },
  import: { scopes: ['curriculum:import'] },
} satisfies Record<string, AccessRule>;
