import { describe, expect, it } from 'vitest';
import { isUuid } from './validation.ts';
import { timeOrderedUuid } from './time-ordered-uuid.ts';

describe('time-ordered UUIDs', () => {
  it('are version 7 with the RFC 9562 variant and carry the millisecond they were made in', () => {
    const at = Date.UTC(2026, 10, 25, 1, 50, 0, 123);
    const id = timeOrderedUuid(at);
    expect(isUuid(id)).toBe(true);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(at);
  });

  it('sort by time across milliseconds and differ within one', () => {
    const ids = Array.from({ length: 1000 }, (_, index) => timeOrderedUuid(1_700_000_000_000 + Math.floor(index / 10)));
    expect(new Set(ids).size).toBe(1000);
    for (let index = 10; index < ids.length; index += 10) expect(ids[index] > ids[index - 1]).toBe(true);
  });

  it('carry their own millisecond when the times asked for alternate', () => {
    const [earlier, later] = [1_700_000_000_000, 1_700_000_000_001];
    for (const at of [earlier, later, earlier, later]) {
      expect(parseInt(timeOrderedUuid(at).replaceAll('-', '').slice(0, 12), 16)).toBe(at);
    }
  });
});
