-- A simulated cluster page lets each single-sign-on ticket in once: the ticket's id is inserted when it is redeemed,
-- and the primary key settles two redemptions at once. Rows are dropped once their ticket has expired.
CREATE TABLE "sim_ticket_uses" (
	"ticket_id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "sim_ticket_uses_expires_idx" ON "sim_ticket_uses" ("expires_at");
