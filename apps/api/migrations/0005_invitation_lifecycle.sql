-- An owner can revoke a pending invitation; the row stays as a record, and its link stops working.
ALTER TABLE "invitations" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
-- The pending invitations of an account, for its users list.
CREATE INDEX "invitations_pending_idx" ON "invitations" USING btree ("account_id","created_at") WHERE accepted_at is null and revoked_at is null;
