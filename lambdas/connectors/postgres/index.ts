// PostgreSQL destination (type `postgres`, fields from the platform's table: host, port, database,
// username, password, table_name, batch_size). Writes one row per element into a table the user
// created (the platform documents its columns; pgvector's `vector(n)` or a float array holds the
// embeddings), fitted to the columns the table has. Replace: the document's rows are deleted by
// record_id and the new ones inserted in one transaction. Check: connects with the credentials,
// reads the table's columns and confirms INSERT and DELETE privileges.
import { defineConnector, type ConnectorConfig } from '../definition';
import { derivedShape } from '../types/derived';
import { postgresInput, tableRef, withConnection } from './client';
import { deleteDocument, tableColumns, writeDocument, type PostgresTarget } from './writer';

type PostgresConfig = PostgresTarget & ConnectorConfig;

export const postgresDestination = defineConnector<PostgresConfig>({
  ...derivedShape('destination', 'postgres', (input) => postgresInput<PostgresConfig>(input)),
  check: (c, ctx) =>
    withConnection(c, ctx.signal, async (client) => {
      const columns = await tableColumns(client, c.table_name);
      const ref = tableRef(c.table_name).sql;
      const priv = await client.query<{ ins: boolean; del: boolean }>(
        `SELECT has_table_privilege($1, 'INSERT') AS ins, has_table_privilege($1, 'DELETE') AS del`,
        [ref],
      );
      const missing = ['INSERT', 'DELETE'].filter((p, i) => !(i === 0 ? priv.rows[0]?.ins : priv.rows[0]?.del));
      if (missing.length) throw new Error(`user ${c.username} lacks ${missing.join(' and ')} on table ${c.table_name}`);
      const names = new Set(columns.map((col) => col.name.toLowerCase()));
      const absent = ['record_id', 'element_id', 'text'].filter((n) => !names.has(n));
      const emb = columns.find((col) => col.name.toLowerCase() === 'embeddings');
      const notes = [`table ${c.table_name}: ${columns.length} columns, INSERT and DELETE allowed`];
      if (emb) notes.push(`embeddings column of type ${emb.typname}`);
      if (absent.length) notes.push(`no ${absent.join(', ')} column (those values are not stored${absent.includes('record_id') ? '; rewrites replace rows by id only' : ''})`);
      return notes.join('; ');
    }),
  upload: (c, file, ctx) => writeDocument(c, file, ctx),
  removeRecords: (c, recordId, ctx) => deleteDocument(c, recordId, ctx),
});
