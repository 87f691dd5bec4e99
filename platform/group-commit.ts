/**
 * Group commit for self-committing writes of one statement: a write that arrives while the previous
 * group's statement runs waits, and all that waited go together in the next statement (one round
 * trip and one WAL flush for all of them). An idle writer's write runs at once. `write` answers each
 * input's result in input order; if its statement fails, each input of the group is written alone, so
 * one write's failure stays its own and the others are stored as if they had come one by one.
 */
export function groupCommit<Key extends object, Input, Output>(
  write: (key: Key, inputs: Input[]) => Promise<Output[]>,
): (key: Key, input: Input) => Promise<Output> {
  const waiting = new WeakMap<Key, Waiting<Input, Output>[]>();

  async function writeGroup(key: Key, group: Waiting<Input, Output>[]): Promise<void> {
    try {
      const outputs = await write(
        key,
        group.map((entry) => entry.input),
      );
      group.forEach((entry, index) => entry.written(outputs[index]));
    } catch (error) {
      if (group.length === 1) group[0].failed(error);
      else for (const entry of group) await writeGroup(key, [entry]);
    }
  }

  async function writeWaiting(key: Key): Promise<void> {
    for (let group = waiting.get(key) ?? []; group.length > 0; group = waiting.get(key) ?? []) {
      waiting.set(key, []);
      await writeGroup(key, group);
    }
    waiting.delete(key);
  }

  return (key, input) =>
    new Promise<Output>((written, failed) => {
      const queue = waiting.get(key);
      if (queue) {
        queue.push({ input, written, failed });
        return;
      }
      waiting.set(key, [{ input, written, failed }]);
      void writeWaiting(key);
    });
}

interface Waiting<Input, Output> {
  input: Input;
  written(output: Output): void;
  failed(error: unknown): void;
}
