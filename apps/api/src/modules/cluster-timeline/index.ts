/** The cluster timeline's public face: a cluster's events and daily charges, composed from clusters and metering. */
export { createClusterTimeline, type ClusterTimeline } from './cluster-timeline.js';
export { clusterTimelineRoutes } from './cluster-timeline.routes.js';
