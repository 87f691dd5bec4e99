import type { CursorCodec } from '../../platform/cursor.ts';
import type { Database } from '../../platform/db.ts';
import type { IdempotencyTable } from '../../platform/idempotency.ts';
import type { PlatformRuntime } from '../../platform/service.ts';
import { httpContentClient, type ContentEligibilityClient } from './content-client.ts';
import { curriculumIdempotency } from './tables.ts';

/** What curriculum's rules need beyond their input: its database and content's published API. */
export interface CurriculumDeps {
  db: Database;
  cursors: CursorCodec;
  idempotency: IdempotencyTable;
  content: ContentEligibilityClient;
}

export function curriculumDeps(runtime: PlatformRuntime, content?: ContentEligibilityClient): CurriculumDeps {
  return {
    db: runtime.database.db,
    cursors: runtime.cursors,
    idempotency: curriculumIdempotency,
    content:
      content ??
      httpContentClient({ baseUrl: () => runtime.config.contentUrl, timeoutMs: runtime.config.serviceCallTimeoutMs, auth: runtime.auth }),
  };
}
