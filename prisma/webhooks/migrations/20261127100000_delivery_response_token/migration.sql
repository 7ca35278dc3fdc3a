-- The response a delivery carries: a deleted or erased response's deliveries
-- are found by it, never by a scan of every body's text.
ALTER TABLE "deliveries" ADD COLUMN "response_token" TEXT;

UPDATE "deliveries" SET "response_token" = "body"::json -> 'form_response' ->> 'token'
 WHERE "body" LIKE '{%';

-- CreateIndex
CREATE INDEX "deliveries_response_token_idx" ON "deliveries"("response_token");

-- Responses deleted in this region: no delivery is planned for them any more,
-- whatever order their submission and their deletion events arrive in. Kept
-- as long as the RESPONSES stream keeps events (RESPONSES_STREAM_MAX_AGE_MS).
CREATE TABLE "deleted_responses" (
    "response_token" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "deleted_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "deleted_responses_pkey" PRIMARY KEY ("response_token")
);

-- CreateIndex
CREATE INDEX "deleted_responses_deleted_at_idx" ON "deleted_responses"("deleted_at");
