import { randomUUID } from 'node:crypto';
import { http, newTenant, roots, type Caller } from '../kit.ts';
import type { RunningPlatform } from '../../gateway/platform.ts';

export const root = roots.events;

/** A tenant with an operator token (registers sources) and its first activity source. */
export async function producer(
  platform: RunningPlatform,
  grant: Parameters<typeof newTenant>[1] = {},
): Promise<Caller & { sourceId: string }> {
  const caller = await newTenant(platform, {
    roles: ['operator'],
    ...grant,
    scopes: [...(grant.scopes ?? ['events:read', 'events:write', 'people_orgs:read']), 'events:sources:write'],
  });
  const source = await http(platform, 'POST', `${root}/activity-sources`, {
    token: caller.token,
    body: { sourceIri: `https://vendor.example/${randomUUID()}`, name: 'Vendor player' },
  });
  if (source.status !== 201) throw new Error(`source registration failed: ${JSON.stringify(source.body)}`);
  return { ...caller, sourceId: source.body.id as string };
}

export function viewed(sourceId: string, overrides: Record<string, unknown> = {}) {
  return {
    kind: 'content_viewed',
    studentId: 'stu-1',
    contentId: 'c-1',
    activitySourceId: sourceId,
    happenedAt: '2026-09-01T10:00:00Z',
    ...overrides,
  };
}

export async function post(
  platform: RunningPlatform,
  caller: Caller,
  events: unknown[],
  headers: Record<string, string> = {},
) {
  return http(platform, 'POST', `${root}/events`, { token: caller.token, body: { events }, headers });
}
