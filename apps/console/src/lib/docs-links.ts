// Product documentation guides linked from home. The shell's Help button takes its addresses from the
// help-links call (GET /api/saas-common/help-document-links) instead.
const DOCS_BASE = 'https://docs.kumo.cloud';

export const GUIDE_LINKS = {
  costAnalysis: `${DOCS_BASE}/guides/cost-analysis`,
  addFunds: `${DOCS_BASE}/guides/adding-funds`,
  clusterSetup: `${DOCS_BASE}/guides/setting-up-a-cluster`,
  addUsers: `${DOCS_BASE}/guides/adding-users`,
} as const;
