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

/** An answer as the `answer` tally names it: a choice (by id), "other", yes/no, a scale's number. */
export type AnswerValue = { choiceId: string } | 'other' | boolean | number;

/**
 * The `answer` tally's key of one answer to one question, as
 * response_tally_deltas writes it (migration 20261129110000).
 */
export function answerKey(fieldId: string, value: AnswerValue): string {
  const text = typeof value === 'object' ? `choice:${value.choiceId}` : String(value);
  return `${fieldId}\u001f${text}`;
}

export interface AnswerCounts {
  /** The form's completed responses. */
  responses: number;
  /** By field id: completed responses answering the question, and the mean of the numbers given. */
  answered: Map<string, { count: number; average: number }>;
  /** By `answerKey`: completed responses giving that answer. */
  given: Map<string, number>;
}

// The aggregates behind the Insights summary and distribution of answers, read from the running tallies
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

  async answerCounts(formId: string): Promise<AnswerCounts> {
    // The mean is divided in NUMERIC: the sum of many large numbers may be
    // beyond a float8, their mean never is.
    const rows = await this.db.$queryRaw<
      Array<{ tally: string; key: string; count: number; average: number }>
    >`
      SELECT tally, key, sum(count)::float8 AS count, (sum(total) / nullif(sum(count), 0))::float8 AS average
        FROM response_tallies
       WHERE form_id = ${formId}
         AND (tally IN ('answers', 'answer') OR (tally = 'type' AND key = 'completed'))
       GROUP BY tally, key
      HAVING sum(count) <> 0`;
    const of = (tally: string) => rows.filter((row) => row.tally === tally);
    return {
      responses: of('type')[0]?.count ?? 0,
      answered: new Map(of('answers').map((row) => [row.key, { count: row.count, average: row.average }])),
      given: new Map(of('answer').map((row) => [row.key, row.count])),
    };
  }
}
