// The one way this service cuts a read of stored responses at a byte budget,
// in PostgreSQL (the listing's rows, an export's page, a right-to-be-forgotten
// batch): `rows` is a subquery of at most the read's rows, each with its
// `payload` as stored, ordered by `order`. Each row's JSON is measured (`own`)
// above that subquery, so only its rows are; `upto` is the bytes up to and with
// a row, and a row is kept when the rows before it came to less than `budget`
// (always the first, and the row that crosses it). The payload stays as stored
// (a pointer, for one stored out of line) through the windows; `select` makes
// what leaves, of the kept rows only. `read` is how many rows `rows` held, the
// cut aside: more than were kept means the read was cut and goes on.
export function keptWithinBytesSql(parts: {
  select: string;
  rows: string;
  order: string;
  budget: string;
}): string {
  const { select, rows, order, budget } = parts;
  return `SELECT ${select}, read::int AS read
            FROM (SELECT measured.*,
                         sum(own) OVER (ORDER BY ${order} ROWS UNBOUNDED PRECEDING) AS upto,
                         count(*) OVER () AS read
                    FROM (SELECT within.*, octet_length(payload::text) AS own
                            FROM (${rows}) AS within OFFSET 0) AS measured) AS sized
           WHERE upto - own < ${budget}
           ORDER BY ${order}`;
}
