-- CreateTable
CREATE TABLE "webhooks" (
    "id" TEXT NOT NULL,
    "form_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "tag" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "webhooks_form_id_tag_key" ON "webhooks"("form_id", "tag");
