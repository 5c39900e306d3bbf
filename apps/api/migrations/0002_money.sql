CREATE SEQUENCE "public"."money_event_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE SEQUENCE "public"."receipt_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1000 CACHE 1;--> statement-breakpoint
CREATE TABLE "billing_accounts" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"overdue_limit_cents" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "billing_accounts_overdue_limit_check" CHECK ("billing_accounts"."overdue_limit_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "credit_allocations" (
	"entry_id" uuid NOT NULL,
	"grant_entry_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "credit_allocations_entry_id_grant_entry_id_pk" PRIMARY KEY("entry_id","grant_entry_id"),
	CONSTRAINT "credit_allocations_amount_check" CHECK ("credit_allocations"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "credit_grants" (
	"entry_id" uuid PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"amount_cents" bigint NOT NULL,
	"remaining_cents" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"expired_at" timestamp with time zone,
	CONSTRAINT "credit_grants_remaining_check" CHECK ("credit_grants"."remaining_cents" >= 0 and "credit_grants"."remaining_cents" <= "credit_grants"."amount_cents")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint DEFAULT nextval('money_event_seq') NOT NULL,
	"subscription_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"category" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"balance_after_cents" bigint NOT NULL,
	"idempotency_key" text NOT NULL,
	"description" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"refund_of_entry_id" uuid,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ledger_entries_amount_check" CHECK ("ledger_entries"."amount_cents" <> 0)
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint DEFAULT nextval('money_event_seq') NOT NULL,
	"account_id" uuid NOT NULL,
	"subscription_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"gateway" text NOT NULL,
	"checkout_session_id" text,
	"checkout_url" text,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"event_name" text NOT NULL,
	"category" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"status" text NOT NULL,
	"failure_message" text,
	"payment_method" text,
	"ledger_entry_id" uuid,
	"receipt_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "purchases_amount_check" CHECK ("purchases"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox_checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"client_reference_id" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"customer_email" text,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"status" text NOT NULL,
	"payment_status" text NOT NULL,
	"last_error" text,
	"card_brand" text,
	"card_last4" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"type" text DEFAULT 'PREPAID' NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"balance_cents" bigint DEFAULT 0 NOT NULL,
	"active_cluster_count" integer DEFAULT 0 NOT NULL,
	"created_by_user_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "subscriptions_active_cluster_count_check" CHECK ("subscriptions"."active_cluster_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "billing_accounts" ADD CONSTRAINT "billing_accounts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_allocations" ADD CONSTRAINT "credit_allocations_entry_id_ledger_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_allocations" ADD CONSTRAINT "credit_allocations_grant_entry_id_credit_grants_entry_id_fk" FOREIGN KEY ("grant_entry_id") REFERENCES "public"."credit_grants"("entry_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_grants" ADD CONSTRAINT "credit_grants_entry_id_ledger_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_grants" ADD CONSTRAINT "credit_grants_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_ledger_entry_id_ledger_entries_id_fk" FOREIGN KEY ("ledger_entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_allocations_grant_idx" ON "credit_allocations" USING btree ("grant_entry_id");--> statement-breakpoint
CREATE INDEX "credit_grants_open_idx" ON "credit_grants" USING btree ("subscription_id","expires_at") WHERE expired_at is null;--> statement-breakpoint
CREATE INDEX "credit_grants_due_idx" ON "credit_grants" USING btree ("expires_at") WHERE expired_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_idempotency_key_idx" ON "ledger_entries" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "ledger_entries_subscription_idx" ON "ledger_entries" USING btree ("subscription_id","seq");--> statement-breakpoint
CREATE INDEX "ledger_entries_refund_of_idx" ON "ledger_entries" USING btree ("refund_of_entry_id") WHERE refund_of_entry_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_checkout_session_idx" ON "purchases" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "purchases_receipt_idx" ON "purchases" USING btree ("receipt_id");--> statement-breakpoint
CREATE INDEX "purchases_subscription_idx" ON "purchases" USING btree ("subscription_id","seq");--> statement-breakpoint
CREATE INDEX "subscriptions_account_idx" ON "subscriptions" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_account_name_idx" ON "subscriptions" USING btree ("account_id",lower("name")) WHERE deleted_at is null;