-- The deployment's own public clients (the console): no account, no secret.
-- Accounts' applications keep both (every path that makes one sets both).
ALTER TABLE "oauth_applications" ALTER COLUMN "account_id" DROP NOT NULL,
ALTER COLUMN "client_secret_hash" DROP NOT NULL;
