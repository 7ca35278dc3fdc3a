-- DropIndex
DROP INDEX "outbox_events_published_at_created_at_idx";

-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "dead_lettered_at" TIMESTAMP(3),
ADD COLUMN     "request_id" TEXT;

-- CreateIndex
CREATE INDEX "outbox_events_published_at_dead_lettered_at_created_at_idx" ON "outbox_events"("published_at", "dead_lettered_at", "created_at");
