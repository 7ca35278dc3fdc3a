-- AlterTable
ALTER TABLE "responses" ADD COLUMN     "progress_key" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "responses_form_id_progress_key_key" ON "responses"("form_id", "progress_key");
