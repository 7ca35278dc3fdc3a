-- CreateEnum
CREATE TYPE "delivery_status" AS ENUM ('pending', 'succeeded', 'failed');

-- CreateEnum
CREATE TYPE "send_failure_kind" AS ENUM ('timeout', 'connection_refused', 'connection_reset', 'dns', 'tls', 'http_status', 'address_refused', 'network', 'interrupted');

-- DropIndex
DROP INDEX "deliveries_webhook_id_created_at_idx";

-- AlterTable
ALTER TABLE "deliveries" ALTER COLUMN "status" DROP DEFAULT,
ALTER COLUMN "status" TYPE "delivery_status" USING ("status"::"delivery_status"),
ALTER COLUMN "status" SET DEFAULT 'pending';

-- AlterTable
ALTER TABLE "delivery_attempts" ADD COLUMN     "error_kind" "send_failure_kind";

-- CreateIndex
CREATE INDEX "deliveries_webhook_id_created_at_id_idx" ON "deliveries"("webhook_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "deliveries_status_updated_at_idx" ON "deliveries"("status", "updated_at");
