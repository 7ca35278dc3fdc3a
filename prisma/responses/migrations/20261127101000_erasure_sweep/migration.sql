-- Whether the job walks the account's responses again, only those saved
-- since it was asked for, before it ends (its final sweep).
ALTER TABLE "erasure_jobs" ADD COLUMN "sweeping" BOOLEAN NOT NULL DEFAULT false;
