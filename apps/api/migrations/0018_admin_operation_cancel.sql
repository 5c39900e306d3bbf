-- The requester of a four-eyes action may withdraw it while it waits: from then on no OTP sent for it works.
ALTER TABLE "admin_operations" ADD COLUMN "cancelled_at" timestamp with time zone;
