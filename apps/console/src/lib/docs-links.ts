// Product documentation. The spec's help-links call (GET /api/saas-common/help-document-links) is not
// served yet, so the addresses are fixed here until it is.
const DOCS_BASE = 'https://docs.kumo.cloud';

export const HELP_LINKS = {
  home: `${DOCS_BASE}/`,
  costAnalysis: `${DOCS_BASE}/cost-analysis`,
  subscriptions: `${DOCS_BASE}/subscriptions`,
  clusters: `${DOCS_BASE}/clusters`,
  users: `${DOCS_BASE}/users`,
  customers: `${DOCS_BASE}/admin/customers`,
} as const;

export const GUIDE_LINKS = {
  costAnalysis: `${DOCS_BASE}/guides/cost-analysis`,
  addFunds: `${DOCS_BASE}/guides/adding-funds`,
  clusterSetup: `${DOCS_BASE}/guides/setting-up-a-cluster`,
  addUsers: `${DOCS_BASE}/guides/adding-users`,
} as const;
