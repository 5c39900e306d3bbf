import { downloadFile } from '../../../lib/download-file';

// Calls on one item of a customer name the customer too, which scopes them on the server.
export const downloadDeploymentTemplate = (userId: string, deploymentId: string) =>
  downloadFile(`/api/admin/download-cluster-template/${encodeURIComponent(deploymentId)}`, { userId }, `${deploymentId}-template.json`);

export const downloadAdminReceipt = (userId: string, transactionId: string) =>
  downloadFile(`/api/admin/download-transaction-receipt/${encodeURIComponent(transactionId)}`, { userId }, `${transactionId}.pdf`);
