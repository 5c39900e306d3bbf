-- A cluster that is not deleted (deleted_at is null) never belongs to a deleted subscription (deleted_at set).
-- Checked from both sides: a cluster written into a deleted subscription, and a subscription deleted while it
-- still has such a cluster. The cluster side locks the subscription row (FOR SHARE) so that it waits for a
-- deletion in progress and then sees it; the subscription side runs once that row is locked for its update, and
-- so sees every cluster committed before it. Rows already in this state are left as they are: the overdue guard
-- stops such clusters (docs/metering.md).
CREATE FUNCTION clusters_refuse_deleted_subscription() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  subscription_deleted_at timestamptz;
BEGIN
  -- Locked whatever its state (a filter on deleted_at would skip the row a deletion is still writing).
  SELECT s.deleted_at INTO subscription_deleted_at FROM subscriptions s WHERE s.id = NEW.subscription_id FOR SHARE;
  IF subscription_deleted_at IS NOT NULL THEN
    RAISE EXCEPTION 'cluster % cannot be live in deleted subscription %', NEW.id, NEW.subscription_id
      USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER clusters_live_in_live_subscription BEFORE INSERT OR UPDATE OF subscription_id, deleted_at ON "clusters"
  FOR EACH ROW WHEN (NEW.deleted_at IS NULL) EXECUTE FUNCTION clusters_refuse_deleted_subscription();--> statement-breakpoint
CREATE FUNCTION subscriptions_refuse_delete_with_live_clusters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM clusters c WHERE c.subscription_id = OLD.id AND c.deleted_at IS NULL) THEN
    RAISE EXCEPTION 'subscription % still has clusters that are not deleted', OLD.id USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END;
$$;--> statement-breakpoint
CREATE TRIGGER subscriptions_deleted_without_live_clusters BEFORE UPDATE OF deleted_at ON "subscriptions"
  FOR EACH ROW WHEN (OLD.deleted_at IS NULL AND NEW.deleted_at IS NOT NULL)
  EXECUTE FUNCTION subscriptions_refuse_delete_with_live_clusters();--> statement-breakpoint
CREATE TRIGGER subscriptions_removed_without_live_clusters BEFORE DELETE ON "subscriptions"
  FOR EACH ROW EXECUTE FUNCTION subscriptions_refuse_delete_with_live_clusters();
