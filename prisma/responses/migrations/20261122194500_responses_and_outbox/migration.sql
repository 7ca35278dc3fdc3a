-- DropIndex
DROP INDEX "responses_form_id_submitted_at_idx";

-- AlterTable
ALTER TABLE "responses" ADD COLUMN     "idempotency_key" TEXT,
ADD COLUMN     "request_hash" TEXT,
ADD COLUMN     "request_id" TEXT,
ADD COLUMN     "response_type" TEXT NOT NULL DEFAULT 'completed',
ADD COLUMN     "search_text" TEXT NOT NULL,
ALTER COLUMN "payload" SET DATA TYPE JSON;

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" JSON NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "outbox_events_published_at_created_at_idx" ON "outbox_events"("published_at", "created_at");

-- CreateIndex
CREATE INDEX "responses_form_id_submitted_at_id_idx" ON "responses"("form_id", "submitted_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "responses_form_id_idempotency_key_key" ON "responses"("form_id", "idempotency_key");
