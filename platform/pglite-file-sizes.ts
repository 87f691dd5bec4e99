import type { PGlite } from '@electric-sql/pglite';

/**
 * PGlite's NodeFS answers each question Postgres asks about a file's size (an lseek to its end:
 * every sequential scan asks its table's, every extension its file's) with an `fstat` system call
 * and a Node `Stats`, 9 to 15 us each here; a next-lesson asks 13 times, a headline 5. The data
 * directory has one process (`lockDataDirectory`) and one Postgres backend, and every change of a
 * file's size in it passes through the file layer's `write` or `setattr` (truncate, ftruncate,
 * fallocate, O_TRUNC), so the size one `fstat` told stays true until one of them runs: it is kept
 * per file node, moved by what a write returns, and forgotten by a setattr or a failed write.
 */

interface FileNode {
  mode: number;
}
interface FileStream {
  node: FileNode;
}
interface NodeFsOperations {
  llseek(stream: FileStream, offset: number, whence: number): number;
  write(stream: FileStream, buffer: unknown, offset: number, length: number, position?: number): number;
  setattr(target: unknown, attributes: unknown): void;
}
interface EmscriptenModule {
  FS: { isFile(mode: number): boolean };
  NODEFS?: { stream_ops: NodeFsOperations; node_ops: Pick<NodeFsOperations, 'setattr'> };
}

const SEEK_END = 2;

/** Keeps the sizes of the client's NodeFS files between their changes; a client on another file system is left as it is. */
export function rememberFileSizes(client: PGlite): void {
  const { FS, NODEFS } = client.Module as unknown as EmscriptenModule;
  if (!NODEFS) return;
  const sizes = new WeakMap<FileNode, number>();
  const streams = NODEFS.stream_ops;
  const { llseek, write, setattr: setStreamAttributes } = streams;
  const setNodeAttributes = NODEFS.node_ops.setattr;

  // Postgres asks a size as lseek(fd, 0, SEEK_END); any other seek (and its range check) stays the file layer's.
  streams.llseek = (stream, offset, whence) => {
    if (whence !== SEEK_END || offset !== 0 || !FS.isFile(stream.node.mode)) return llseek(stream, offset, whence);
    let size = sizes.get(stream.node);
    if (size === undefined) {
      size = llseek(stream, 0, SEEK_END);
      sizes.set(stream.node, size);
    }
    return size;
  };
  streams.write = (stream, buffer, offset, length, position) => {
    let written: number;
    try {
      written = write(stream, buffer, offset, length, position);
    } catch (error) {
      // Part of it may have reached the file.
      sizes.delete(stream.node);
      throw error;
    }
    const size = sizes.get(stream.node);
    if (position === undefined) sizes.delete(stream.node);
    else if (size !== undefined && position + written > size) sizes.set(stream.node, position + written);
    return written;
  };
  const forgetting =
    <Target>(node: (target: Target) => FileNode, set: (target: Target, attributes: unknown) => void) =>
    (target: Target, attributes: unknown) => {
      sizes.delete(node(target));
      try {
        set(target, attributes);
      } finally {
        sizes.delete(node(target));
      }
    };
  streams.setattr = forgetting((stream: FileStream) => stream.node, setStreamAttributes);
  NODEFS.node_ops.setattr = forgetting((node: FileNode) => node, setNodeAttributes);
}
