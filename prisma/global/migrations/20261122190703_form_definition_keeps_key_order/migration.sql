-- AlterTable
ALTER TABLE "forms" ALTER COLUMN "definition" SET DATA TYPE JSON;
