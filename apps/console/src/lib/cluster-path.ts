/** A cluster's page in the console: the clusters feature and the places that link to a cluster share it. */
export const clusterPath = (subscriptionId: string, deploymentId: string) => `/clusters/${subscriptionId}/${deploymentId}`;
