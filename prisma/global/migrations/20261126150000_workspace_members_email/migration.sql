-- CreateIndex
CREATE INDEX "workspace_members_email_idx" ON "workspace_members"("email");
