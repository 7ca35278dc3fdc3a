-- AlterTable
ALTER TABLE "workspace_members" ADD COLUMN     "role" TEXT NOT NULL DEFAULT 'member';
