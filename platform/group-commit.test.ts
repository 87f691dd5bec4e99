import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.ts';

/** A write whose statements the test releases one at a time, failing any group holding a refused input. */
function heldWrites(refused: Set<number>, options?: { pipelined: boolean }) {
  const groups: number[][] = [];
  const pending: Array<() => void> = [];
  const write = groupCommit(async (_key: object, _partition: string, inputs: number[]) => {
    groups.push(inputs);
    await new Promise<void>((resolve) => pending.push(resolve));
    if (inputs.some((input) => refused.has(input))) throw new Error(`refused ${inputs.join(',')}`);
    return inputs.map((input) => input * 10);
  }, options);
  // Releases statements as they come, until ten turns in a row bring none (a group gathers for fewer).
  const releaseAll = async () => {
    for (let idle = 0; idle < 10 && groups.length < 100;) {
      await new Promise((resolve) => setImmediate(resolve));
      const next = pending.shift();
      idle = next ? 0 : idle + 1;
      next?.();
    }
  };
  return { write, groups, releaseAll };
}

describe('groupCommit', () => {
  it('writes the inputs asked together in one statement, and what arrives while it runs in the next', async () => {
    const { write, groups, releaseAll } = heldWrites(new Set());
    const key = {};
    const first = 1 + Math.floor(Math.random() * 5);
    const later = 1 + Math.floor(Math.random() * 5);
    const answers = Array.from({ length: first }, (_, index) => write(key, 't', index));
    while (groups.length === 0) await new Promise((resolve) => setImmediate(resolve));
    answers.push(...Array.from({ length: later }, (_, index) => write(key, 't', first + index)));
    await releaseAll();
    expect(await Promise.all(answers)).toEqual(Array.from({ length: first + later }, (_, index) => index * 10));
    const numbers = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);
    expect(groups).toEqual([numbers(0, first), numbers(first, later)]);
  });

  it('gathers the inputs of the next turns of the event loop (requests read from their sockets) before its statement', async () => {
    const { write, groups, releaseAll } = heldWrites(new Set());
    const key = {};
    const answers: Promise<number>[] = [];
    // Queued before the first write, as a socket's read is when its request arrives during a statement.
    setImmediate(() => {
      answers.push(write(key, 't', 1));
      setImmediate(() => answers.push(write(key, 't', 2)));
    });
    answers.push(write(key, 't', 0));
    await releaseAll();
    expect(await Promise.all(answers)).toEqual([0, 10, 20]);
    expect(groups).toEqual([[0, 1, 2]]);
  });

  it('writes each input of a failed group alone, so only the refused one fails', async () => {
    const count = 3 + Math.floor(Math.random() * 6);
    const refused = 1 + Math.floor(Math.random() * (count - 1));
    const { write, groups, releaseAll } = heldWrites(new Set([refused]));
    const key = {};
    const answers = Array.from({ length: count }, (_, index) =>
      write(key, 't', index).then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.message }),
      ),
    );
    await releaseAll();
    expect(await Promise.all(answers)).toEqual(
      Array.from({ length: count }, (_, index) =>
        index === refused ? { error: `refused ${index}` } : { value: index * 10 },
      ),
    );
    const all = Array.from({ length: count }, (_, index) => index);
    expect(groups).toEqual([all, ...all.map((index) => [index])]);
  });

  it('keeps keys and partitions apart: each writes its own inputs, none waiting for another', async () => {
    const { write, groups, releaseAll } = heldWrites(new Set());
    const [one, two] = [{}, {}];
    const answers = Promise.all([write(one, 'a', 1), write(one, 'a', 2), write(two, 'a', 3), write(one, 'b', 4)]);
    // Every statement is held until released: each partition's is sent without waiting for another's.
    for (let turn = 0; turn < 10 && groups.length < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(groups).toHaveLength(3);
    await releaseAll();
    expect(await answers).toEqual([10, 20, 30, 40]);
    expect([...groups].sort((a, b) => a[0] - b[0])).toEqual([[1, 2], [3], [4]]);
  });

  describe('pipelined, on a database outside the event loop', () => {
    it('does not gather: the first statement leaves at once, and what arrives while it runs goes in the next', async () => {
      const { write, groups, releaseAll } = heldWrites(new Set(), { pipelined: true });
      const key = {};
      const later = 1 + Math.floor(Math.random() * 5);
      const answers: Promise<number>[] = [];
      setImmediate(() => answers.push(...Array.from({ length: later }, (_, index) => write(key, 't', 1 + index))));
      answers.push(write(key, 't', 0));
      await releaseAll();
      expect(await Promise.all(answers)).toEqual(Array.from({ length: later + 1 }, (_, index) => index * 10));
      expect(groups).toEqual([[0], Array.from({ length: later }, (_, index) => 1 + index)]);
    });

    it('has the second statement in hand before the first group is answered', async () => {
      const order: string[] = [];
      let release: (() => void) | undefined;
      const write = groupCommit(
        async (_key: object, _partition: string, inputs: number[]) => {
          order.push(`sent ${inputs.join(',')}`);
          if (inputs[0] === 0) await new Promise<void>((resolve) => (release = resolve));
          return inputs;
        },
        { pipelined: true },
      );
      const key = {};
      const answers = [write(key, 't', 0).then(() => order.push('answered 0'))];
      await new Promise((resolve) => setImmediate(resolve));
      answers.push(write(key, 't', 1).then(() => order.push('answered 1')));
      release?.();
      await Promise.all(answers);
      expect(order).toEqual(['sent 0', 'sent 1', 'answered 0', 'answered 1']);
    });

    it('writes a failed group one by one before it sends the next, so only the refused input fails', async () => {
      const { write, groups, releaseAll } = heldWrites(new Set([2]), { pipelined: true });
      const key = {};
      const settle = (input: number) =>
        write(key, 't', input).then(
          (value) => ({ value }),
          (error: Error) => ({ error: error.message }),
        );
      const answers = [settle(0)];
      await new Promise((resolve) => setImmediate(resolve));
      answers.push(settle(1), settle(2), settle(3));
      const releasing = releaseAll();
      // Arrives while the group [1, 2, 3] runs: it must wait until that group's inputs are written alone.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      answers.push(settle(4));
      await releasing;
      expect(await Promise.all(answers)).toEqual([
        { value: 0 },
        { value: 10 },
        { error: 'refused 2' },
        { value: 30 },
        { value: 40 },
      ]);
      expect(groups).toEqual([[0], [1, 2, 3], [1], [2], [3], [4]]);
    });
  });
});
