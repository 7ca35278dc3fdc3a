-- CreateTable
CREATE TABLE "uploads" (
    "file_name" TEXT NOT NULL,
    "form_id" TEXT NOT NULL,
    "field_id" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "response_id" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "uploads_pkey" PRIMARY KEY ("file_name")
);

-- CreateIndex
CREATE INDEX "uploads_response_id_idx" ON "uploads"("response_id");

-- CreateIndex
CREATE INDEX "uploads_created_at_idx" ON "uploads"("created_at");

-- AddForeignKey
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_response_id_fkey" FOREIGN KEY ("response_id") REFERENCES "responses"("id") ON DELETE SET NULL ON UPDATE CASCADE;
