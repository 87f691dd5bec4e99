import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { openDatabase, postgresTarget, rowsOf } from './db.ts';

const url = process.env.DATABASE_URL;

describe('postgresTarget', () => {
  it("reads libpq's host and port parameters: a Unix socket's directory, with or without a host in the URL", () => {
    expect(postgresTarget('postgres://alp:s%40cret@/school?host=/cloudsql/p:r:i')).toEqual({
      url: 'postgres://alp:s%40cret@localhost/school',
      host: '/cloudsql/p:r:i',
    });
    expect(postgresTarget('postgresql:///school?host=/run/postgresql&port=5433&sslmode=disable')).toEqual({
      url: 'postgresql://localhost/school?sslmode=disable',
      host: '/run/postgresql',
      port: 5433,
    });
    expect(postgresTarget('postgres://alp@db.internal:6432/school?host=/run/postgresql')).toEqual({
      url: 'postgres://alp@db.internal/school',
      host: '/run/postgresql',
      port: 6432,
    });
  });

  it('hands any other URL over as it is', () => {
    for (const plain of [
      'postgres://alp@127.0.0.1:5433/school',
      'postgres:///school',
      'postgres://alp@h1:5432,h2:5433/school',
      'postgres://alp@/school',
    ]) {
      expect(postgresTarget(plain)).toEqual({ url: plain });
    }
  });

  it.skipIf(!url)("connects over the server's Unix socket when the URL names its directory", async (context) => {
    const probe = await openDatabase(loadConfig({ DATABASE_URL: url }));
    let socketUrl: string;
    try {
      const [server] = rowsOf<{ dirs: string; port: string; db: string; who: string }>(
        await probe.db.execute(
          sql`select current_setting('unix_socket_directories') as dirs, current_setting('port') as port,
            current_database() as db, current_user as who`,
        ),
      );
      const directory = server.dirs.split(',')[0].trim();
      if (!directory || !fs.existsSync(`${directory}/.s.PGSQL.${server.port}`)) return context.skip();
      const password = new URL(url as string).password;
      const credentials = password ? `${encodeURIComponent(server.who)}:${password}` : encodeURIComponent(server.who);
      socketUrl = `postgres://${credentials}@/${server.db}?host=${directory}&port=${server.port}`;
    } finally {
      await probe.close();
    }
    const database = await openDatabase(loadConfig({ DATABASE_URL: socketUrl }));
    try {
      const [row] = rowsOf<{ client: string | null }>(
        await database.db.execute(sql`select inet_client_addr()::text as client`),
      );
      // A connection over a Unix socket has no client address.
      expect(row.client).toBeNull();
    } finally {
      await database.close();
    }
  });
});

describe('the patched postgres.js (patches/postgres+3.4.9.patch)', () => {
  it.skipIf(!url)(
    "answers each statement's result as before: rows as the array's only own keys, its count, command and columns beside them, derived arrays and promises plain",
    async () => {
      const { default: postgres } = await import('postgres');
      const client = postgres(postgresTarget(url as string).url, { max: 1, onnotice: () => {} });
      try {
        const query = client`select n from generate_series(1, 3) as n`;
        expect(query.then(() => 'settled')).not.toBeInstanceOf(query.constructor);
        const rows = await query;
        expect(Object.keys(rows)).toEqual(['0', '1', '2']);
        expect(JSON.stringify(rows)).toBe('[{"n":1},{"n":2},{"n":3}]');
        expect({
          count: rows.count,
          command: rows.command,
          columns: rows.columns.map((column) => column.name),
        }).toEqual({
          count: 3,
          command: 'SELECT',
          columns: ['n'],
        });
        expect(rows.statement.string).toContain('generate_series');
        expect(rows.map((row) => row.n).constructor).toBe(Array);
        const filtered = await client`with t(n) as (values (1), (2)) select n from t where n > 1`;
        expect(filtered.count).toBe(1);
      } finally {
        await client.end({ timeout: 5 });
      }
    },
  );
});
