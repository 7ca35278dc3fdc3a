import { Injectable } from '@nestjs/common';
import { ResponsesPrismaClient } from '@formline/db';

export interface PlatformCounts {
  platform: string;
  landings: number;
  completed: number;
  /** Mean seconds from landing to submission of the completed responses (null: none). */
  averageSeconds: number | null;
}

export interface FieldCounts {
  fieldId: string;
  count: number;
}

export interface InsightsCounts {
  platforms: PlatformCounts[];
  /** How many responses answered each question. */
  answered: FieldCounts[];
  /** Responses left unfinished, by the last question they answered. */
  leftAfter: FieldCounts[];
}

type TallyRow = { tally: string; key: string; count: number; milliseconds: number };

// The aggregates behind the Insights summary, read from the running tallies
// the database keeps of the form's responses in this region
// (response_tallies): a few rows per question, never the responses.
@Injectable()
export class InsightsRepository {
  constructor(private readonly db: ResponsesPrismaClient) {}

  async counts(formId: string): Promise<InsightsCounts> {
    const rows = await this.db.$queryRaw<TallyRow[]>`
      SELECT tally, key, sum(count)::float8 AS count, sum(milliseconds)::float8 AS milliseconds
        FROM response_tallies
       WHERE form_id = ${formId} AND tally IN ('landed', 'completed', 'answered', 'left_after')
       GROUP BY tally, key
      HAVING sum(count) <> 0`;
    const of = (tally: string) => rows.filter((row) => row.tally === tally);
    const completed = new Map(of('completed').map((row) => [row.key, row]));
    return {
      platforms: of('landed').map((landed) => {
        const done = completed.get(landed.key);
        return {
          platform: landed.key,
          landings: landed.count,
          completed: done?.count ?? 0,
          averageSeconds: done ? done.milliseconds / done.count / 1000 : null,
        };
      }),
      answered: of('answered').map((row) => ({ fieldId: row.key, count: row.count })),
      leftAfter: of('left_after').map((row) => ({ fieldId: row.key, count: row.count })),
    };
  }
}
