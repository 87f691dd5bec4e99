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
