import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.ts';

/** A write whose statements the test releases one at a time, failing any group holding a refused input. */
function heldWrites(refused: Set<number>) {
  const groups: number[][] = [];
  const pending: Array<() => void> = [];
  const write = groupCommit(async (_key: object, _partition: string, inputs: number[]) => {
    groups.push(inputs);
    await new Promise<void>((resolve) => pending.push(resolve));
    if (inputs.some((input) => refused.has(input))) throw new Error(`refused ${inputs.join(',')}`);
    return inputs.map((input) => input * 10);
  });
  const releaseAll = async () => {
    while (groups.length < 100) {
      await new Promise((resolve) => setImmediate(resolve));
      const next = pending.shift();
      if (!next) return;
      next();
    }
  };
  return { write, groups, releaseAll };
}

describe('groupCommit', () => {
  it('writes what arrives while a statement runs in the next one, answering each its own result', async () => {
    const { write, groups, releaseAll } = heldWrites(new Set());
    const key = {};
    const count = 2 + Math.floor(Math.random() * 8);
    const answers = Promise.all(Array.from({ length: count }, (_, index) => write(key, 't', index)));
    await releaseAll();
    expect(await answers).toEqual(Array.from({ length: count }, (_, index) => index * 10));
    expect(groups).toEqual([[0], Array.from({ length: count - 1 }, (_, index) => index + 1)]);
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
    const rest = Array.from({ length: count - 1 }, (_, index) => index + 1);
    expect(groups).toEqual([[0], rest, ...rest.map((index) => [index])]);
  });

  it('keeps keys and partitions apart: an idle one writes at once while another is busy', async () => {
    const { write, groups, releaseAll } = heldWrites(new Set());
    const [one, two] = [{}, {}];
    const answers = Promise.all([write(one, 'a', 1), write(one, 'a', 2), write(two, 'a', 3), write(one, 'b', 4)]);
    await releaseAll();
    expect(await answers).toEqual([10, 20, 30, 40]);
    expect(groups).toEqual([[1], [3], [4], [2]]);
  });
});
