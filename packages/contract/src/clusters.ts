// The clusters part of the contract, one file per topic.
export * from './cluster-states.js';
export * from './cluster-create.js';
export * from './cluster-views.js';
export * from './cluster-operations.js';
export * from './cluster-audit.js';
export * from './cluster-schedule.js';
export * from './cluster-access.js';
export * from './cluster-sql.js';
export * from './cluster-sizes.js';
