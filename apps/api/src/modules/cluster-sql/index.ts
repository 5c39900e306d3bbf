export { clusterQueryActivity } from './cluster-sql.views.js';
