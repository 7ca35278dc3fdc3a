// The form's other tables: every table of the responses database, besides
// responses, outbox_events and uploads (which the purge handles apart: the
// outbox by its payload, uploads with their stored bytes), that holds rows of
// one form in a `form_id` column. The form purge empties each of them, in
// this order, a bounded batch at a time.
// A table added to the responses database with per-form rows is listed here,
// or a deleted form's rows stay in it forever.
export function formOtherTables(): readonly string[] {
  return ['response_tallies'];
}
