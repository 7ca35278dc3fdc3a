-- CreateTable
CREATE TABLE "erasure_jobs" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'queued',
    "emails" TEXT[],
    "position" TEXT,
    "responses_deleted" INTEGER NOT NULL DEFAULT 0,
    "files_deleted" INTEGER NOT NULL DEFAULT 0,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "leased_until" TIMESTAMP(3),
    "lease_owner" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMP(3),

    CONSTRAINT "erasure_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "erasure_jobs_state_created_at_idx" ON "erasure_jobs"("state", "created_at");

-- CreateIndex
CREATE INDEX "erasure_jobs_finished_at_idx" ON "erasure_jobs"("finished_at");
