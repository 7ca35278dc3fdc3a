-- AlterTable
ALTER TABLE "delivery_attempts" ADD COLUMN     "in_flight_until" TIMESTAMP(3);
