-- The response an outbox event carries (null for events about other things):
-- a deleted or erased response's events are found by it, never by a scan of
-- every payload's text.
ALTER TABLE "outbox_events" ADD COLUMN "response_id" TEXT;

UPDATE "outbox_events" SET "response_id" = "payload" -> 'form_response' ->> 'token'
 WHERE "subject" = 'responses.response.submitted.v1';

-- CreateIndex
CREATE INDEX "outbox_events_response_id_idx" ON "outbox_events"("response_id");
