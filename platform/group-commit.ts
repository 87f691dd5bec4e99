/**
 * Group commit for self-committing writes of one statement: a write that arrives while the previous
 * group's statement runs on the same `key` (a database) for the same `partition` (a tenant) waits, and
 * all that waited go together in the next statement (one round trip and one WAL flush for all of them).
 * An idle partition's write runs at once, so one tenant's writes never wait on another's. `write`
 * answers each input's result in input order; if its statement fails, each input of the group is
 * written alone, so one write's failure stays its own and the others are stored as if they had come
 * one by one. Reads can share a round the same way (content's eligibility reads): every input is read
 * by a statement sent after it was asked, never answered from one already under way.
 */
export function groupCommit<Key extends object, Input, Output>(
  write: (key: Key, partition: string, inputs: Input[]) => Promise<Output[]>,
): (key: Key, partition: string, input: Input) => Promise<Output> {
  const partitions = new WeakMap<Key, Map<string, Waiting<Input, Output>[]>>();

  async function writeGroup(key: Key, partition: string, group: Waiting<Input, Output>[]): Promise<void> {
    try {
      const outputs = await write(
        key,
        partition,
        group.map((entry) => entry.input),
      );
      group.forEach((entry, index) => entry.written(outputs[index]));
    } catch (error) {
      if (group.length === 1) group[0].failed(error);
      else for (const entry of group) await writeGroup(key, partition, [entry]);
    }
  }

  async function writeWaiting(key: Key, waiting: Map<string, Waiting<Input, Output>[]>, partition: string) {
    for (let group = waiting.get(partition) ?? []; group.length > 0; group = waiting.get(partition) ?? []) {
      waiting.set(partition, []);
      await writeGroup(key, partition, group);
    }
    waiting.delete(partition);
  }

  return (key, partition, input) =>
    new Promise<Output>((written, failed) => {
      let waiting = partitions.get(key);
      if (!waiting) partitions.set(key, (waiting = new Map()));
      const queue = waiting.get(partition);
      if (queue) {
        queue.push({ input, written, failed });
        return;
      }
      waiting.set(partition, [{ input, written, failed }]);
      void writeWaiting(key, waiting, partition);
    });
}

interface Waiting<Input, Output> {
  input: Input;
  written(output: Output): void;
  failed(error: unknown): void;
}
