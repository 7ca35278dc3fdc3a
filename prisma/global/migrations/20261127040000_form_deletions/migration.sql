-- CreateTable
CREATE TABLE "form_deletions" (
    "id" TEXT NOT NULL,
    "form_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "region" "Region" NOT NULL,
    "deleted_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "form_deletions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "form_deletions_region_deleted_at_idx" ON "form_deletions"("region", "deleted_at");
