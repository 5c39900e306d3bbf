-- Mail that held a secret (an OTP, an approval OTP, an invitation link) and was already handed over keeps no body:
-- from now on such bodies are sealed when written and blanked once SMTP has them, and sent mail is purged after 7 days.
UPDATE "mail_outbox" SET "text_body" = '', "html_body" = '' WHERE "kind" <> 'notification' AND "status" = 'SENT';--> statement-breakpoint
-- The purge finds sent mail by when it was sent.
CREATE INDEX "mail_outbox_sent_idx" ON "mail_outbox" ("sent_at") WHERE "status" = 'SENT';
