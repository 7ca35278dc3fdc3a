import { Injectable } from '@nestjs/common';
import { ResponsesPrismaClient } from '@formline/db';

// How many responses a form has, read from the running tallies the database
// keeps of them (response_tallies, added to by triggers on `responses` in the
// same transaction as every insert, update and delete): exact, and a few rows
// to read whatever the form's size.
@Injectable()
export class ResponseTallyRepository {
  constructor(private readonly db: ResponsesPrismaClient) {}

  // The form's responses whose response_type is one of `types`.
  async responsesOfTypes(formId: string, types: readonly string[]): Promise<number> {
    const [row] = await this.db.$queryRaw<[{ count: number }]>`
      SELECT coalesce(sum(count), 0)::float8 AS count
        FROM response_tallies
       WHERE form_id = ${formId} AND tally = 'type' AND key = ANY(${types}::text[])`;
    return row.count;
  }
}
