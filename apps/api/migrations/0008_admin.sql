-- Four-eyes admin actions: what staff asked for (the payload frozen under an HMAC), the approvers the OTPs went
-- to (one OTP each, so the approval names its approver), who asked, who approved, when and what changed.
-- Plus the customer's manager (KM) access settings.
CREATE TABLE "admin_operations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"action_name" text NOT NULL,
	"customer_user_id" uuid NOT NULL REFERENCES "users"("id"),
	"account_id" uuid NOT NULL REFERENCES "accounts"("id"),
	"payload" jsonb NOT NULL,
	"payload_hmac" text NOT NULL,
	"requested_by_user_id" uuid NOT NULL REFERENCES "users"("id"),
	"approver_otp_hashes" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"send_count" integer DEFAULT 1 NOT NULL,
	"first_sent_at" timestamp with time zone NOT NULL,
	"approved_at" timestamp with time zone,
	"approved_by_email" text,
	"outcome" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "admin_operations_customer_idx" ON "admin_operations" USING btree ("customer_user_id","created_at");--> statement-breakpoint
CREATE INDEX "admin_operations_pending_idx" ON "admin_operations" USING btree ("expires_at") WHERE approved_at IS NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "km_admin_access" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "km_user_role" text DEFAULT 'Integration' NOT NULL;
