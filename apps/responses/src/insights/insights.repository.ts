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

// The aggregates behind the Insights summary, counted by PostgreSQL over the
// form's responses in this region (never the rows themselves).
@Injectable()
export class InsightsRepository {
  constructor(private readonly db: ResponsesPrismaClient) {}

  async platforms(formId: string): Promise<PlatformCounts[]> {
    const rows = await this.db.$queryRaw<
      Array<{ platform: string | null; landings: number; completed: number; average: number | null }>
    >`
      SELECT payload->'metadata'->>'platform' AS platform,
             count(*)::int AS landings,
             count(*) FILTER (WHERE response_type = 'completed')::int AS completed,
             (avg(extract(epoch FROM submitted_at - landed_at)) FILTER (WHERE response_type = 'completed'))::float8 AS average
        FROM responses
       WHERE form_id = ${formId}
       GROUP BY 1`;
    return rows.map((row) => ({
      platform: row.platform ?? 'other',
      landings: row.landings,
      completed: row.completed,
      averageSeconds: row.average,
    }));
  }

  // How many responses answered each question.
  async answered(formId: string): Promise<FieldCounts[]> {
    return this.db.$queryRaw<FieldCounts[]>`
      SELECT answer->'field'->>'id' AS "fieldId", count(*)::int AS count
        FROM responses, json_array_elements(payload->'answers') AS answer
       WHERE form_id = ${formId}
       GROUP BY 1`;
  }

  // Responses left unfinished, by the last question they answered.
  async leftAfter(formId: string): Promise<FieldCounts[]> {
    return this.db.$queryRaw<FieldCounts[]>`
      SELECT (payload->'answers'->-1)->'field'->>'id' AS "fieldId", count(*)::int AS count
        FROM responses
       WHERE form_id = ${formId}
         AND response_type <> 'completed'
         AND json_array_length(payload->'answers') > 0
       GROUP BY 1`;
  }
}
