import { describe, expect } from 'vitest';
import { http, type Reply } from '../kit.ts';
import { filePlatform, platformTest } from '../platform-test.ts';
import { post, producer, root, viewed } from './helpers.ts';

const it = platformTest();

/**
 * A poller following the spec's guidance: keep a modifiedSince high-watermark, drain every cursor
 * before advancing it, de-duplicate by id. Meaningful on PostgreSQL, where writers really overlap.
 */
async function pollOnce(token: string, state: { watermark: string; seen: Set<string> }): Promise<void> {
  let cursor: string | null = null;
  let highest = state.watermark;
  do {
    const query: string = `modifiedSince=${encodeURIComponent(state.watermark)}&pageSize=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await http(filePlatform(), 'GET', `${root}/events?${query}`, { token });
    expect(page.status).toBe(200);
    for (const event of page.body.data as Array<{ id: string; modifiedAt: string }>) {
      state.seen.add(event.id);
      if (event.modifiedAt > highest) highest = event.modifiedAt;
    }
    cursor = page.body.nextCursor;
  } while (cursor);
  state.watermark = highest;
}

describe('the modifiedSince feed under concurrent writers', () => {
  it('never lets a poller miss a committed event', async ({ platform }) => {
    const caller = await producer(platform);
    const accepted = new Set<string>();
    // The writers' second half waits for the first poll, so the poller always polls again while they
    // write: grouped writes could otherwise all commit during one long first drain.
    let firstPollDone = () => {};
    const firstPoll = new Promise<void>((resolve) => (firstPollDone = resolve));
    const writers = Array.from({ length: 6 }, async (_, writer) => {
      for (let batch = 0; batch < 12; batch += 1) {
        if (batch === 6) await firstPoll;
        const size = 1 + ((writer + batch) % 3);
        const reply = await post(
          platform,
          caller,
          Array.from({ length: size }, (_, index) =>
            viewed(caller.sourceId, { contentId: `w${writer}-b${batch}-${index}` }),
          ),
        );
        expect(reply.status).toBe(202);
        for (const event of reply.body.data) accepted.add(event.id);
      }
    });
    const state = { watermark: '2000-01-01T00:00:00.000Z', seen: new Set<string>() };
    let writing = true;
    const done = Promise.all(writers).finally(() => {
      writing = false;
    });
    let polls = 0;
    while (writing) {
      await pollOnce(caller.token, state);
      polls += 1;
      firstPollDone();
    }
    await done;
    // One last poll from the watermark: anything committed behind it would be lost for good.
    await pollOnce(caller.token, state);
    expect(polls).toBeGreaterThan(1);
    expect(accepted.size).toBe(6 * 24);
    expect([...accepted].filter((id) => !state.seen.has(id))).toEqual([]);
    expect(state.seen.size).toBe(accepted.size);

    // Commit order and modifiedAt agree: the full feed never goes back in time.
    const all: Array<{ modifiedAt: string }> = [];
    let cursor: string | null = null;
    do {
      const page: Reply = await http(
        platform,
        'GET',
        `${root}/events?pageSize=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token: caller.token },
      );
      all.push(...page.body.data);
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(all.map((event) => event.modifiedAt)).toEqual([...all.map((event) => event.modifiedAt)].sort());
  });
});
