-- The ledger is append-only: entries and their credit allocations are never changed or removed.
CREATE FUNCTION ledger_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger rows are append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON "ledger_entries" FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();--> statement-breakpoint
CREATE TRIGGER credit_allocations_append_only BEFORE UPDATE OR DELETE ON "credit_allocations" FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
