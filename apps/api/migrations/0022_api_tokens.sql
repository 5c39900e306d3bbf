-- Personal API tokens: a script's way into the customer API, acting as the owner or admin who made it in one account.
-- Owned by the api-tokens module; account_id and user_id name the auth module's accounts and people, kept by these
-- foreign keys. Only a keyed hash of each secret is stored; the live tokens of a person are listed by the partial index.
CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL REFERENCES "accounts"("id"),
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"name" text NOT NULL,
	"scope" text NOT NULL CHECK ("scope" IN ('READ', 'WRITE')),
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"allowed_ips" text[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"last_used_ip" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_secret_hash_idx" ON "api_tokens" USING btree ("secret_hash");
--> statement-breakpoint
CREATE INDEX "api_tokens_owner_idx" ON "api_tokens" USING btree ("account_id","user_id","created_at") WHERE "revoked_at" IS NULL;
