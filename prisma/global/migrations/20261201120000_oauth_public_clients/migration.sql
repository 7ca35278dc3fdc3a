-- The deployment's own public clients (the console): no account, no secret.
ALTER TABLE "oauth_applications" ALTER COLUMN "account_id" DROP NOT NULL,
ALTER COLUMN "client_secret_hash" DROP NOT NULL;

-- An account's application always has a secret: only the deployment makes public clients.
ALTER TABLE "oauth_applications" ADD CONSTRAINT "oauth_applications_public_client_check"
  CHECK (("account_id" IS NULL) = ("client_secret_hash" IS NULL));
