-- CreateTable
CREATE TABLE "form_purges" (
    "form_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "deleted_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "purged" INTEGER NOT NULL DEFAULT 0,
    "leased_until" TIMESTAMP(3),

    CONSTRAINT "form_purges_pkey" PRIMARY KEY ("form_id")
);

-- CreateIndex
CREATE INDEX "form_purges_created_at_idx" ON "form_purges"("created_at");
