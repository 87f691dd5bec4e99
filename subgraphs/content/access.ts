import type { AccessRule } from '../../platform/auth.ts';

/** The Auth column of the content document, one rule per letter. */
export const ACCESS = {
  /** S: role service, demo or operator. */
  service: { anyRole: ['service', 'demo', 'operator'] },
  /** A: author:content. */
  author: { scopes: ['author:content'] },
  /** R: read:content. */
  read: { scopes: ['read:content'] },
  /** K: read:answer_key. */
  answerKeys: { scopes: ['read:answer_key'] },
  /** L: link:kc. */
  linkKc: { scopes: ['link:kc'] },
  /** P: publish:content plus service, reviewer or operator role. */
  publish: { scopes: ['publish:content'], anyRole: ['service', 'reviewer', 'operator'] },
} satisfies Record<string, AccessRule>;
