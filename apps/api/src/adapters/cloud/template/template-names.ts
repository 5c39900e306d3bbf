/**
 * What every part of the deployment template shares: the settings and document types, the names of the parameters,
 * outputs and tags the AWS driver relies on, and the intrinsic-function helpers.
 */
import type { ClusterSettings } from '../cloud-provisioner.js';

/** The cluster's settings and its deployment id (resources are tagged and named with it). */
export interface ClusterTemplateSettings extends ClusterSettings {
  deploymentId: string;
}

/** A CloudFormation document (JSON form). Values are intrinsic-function trees, hence unknown. */
export interface CloudFormationTemplate {
  AWSTemplateFormatVersion: '2010-09-09';
  Description: string;
  Metadata?: Record<string, unknown>;
  Parameters: Record<string, Record<string, unknown>>;
  Conditions?: Record<string, unknown>;
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; DependsOn?: string | string[]; [key: string]: unknown }>;
  Outputs: Record<string, { Description?: string; Value: unknown }>;
}

export class TemplateSettingsError extends Error {}

/** Names of the parameters the driver passes to CreateStack. */
export const TEMPLATE_PARAMETERS = {
  password: 'ClusterPassword',
  portalSqlCredential: 'PortalSqlCredential',
  amiId: 'KumoAmiId',
  keyName: 'KeyName',
  ingressCidr: 'AllowedIngressCidr',
  backupDestinationBucketArn: 'BackupDestinationBucketArn',
  queryEngineInstanceType: 'QueryEngineInstanceType',
  queryEngineCount: 'QueryEngineCount',
} as const;

/** Names of the outputs the driver reads back. */
export const TEMPLATE_OUTPUTS = {
  managerUrl: 'KumoManagerUrl',
  portalUrl: 'KumoUrl',
  deploymentId: 'DeploymentId',
  backupBucket: 'BackupBucketName',
} as const;

/** Tags every instance carries: the driver finds a cluster's nodes by the first one. */
export const TAG_KEYS = {
  deploymentId: 'kumo:deployment-id',
  role: 'kumo:role',
  node: 'kumo:node',
  clusterName: 'kumo:cluster-name',
  version: 'kumo:version',
  /** Written by the Kumo installer on the Peripheral node: the product's deployment status. */
  deploymentStatus: 'kumo:deployment-status',
} as const;

/** Where the AMI id of a Kumo version is published in SSM Parameter Store (the operator keeps it). */
export const amiParameterPath = (kumoVersion: string) => `/kumo/ami/${kumoVersion}`;

/** Backups of this deployment go under this key prefix, in the source and in the shared destination bucket. */
export const backupPrefixFor = (deploymentId: string) => `${sanitize(deploymentId)}/`;

/** Lower case letters, digits and inner dashes: what bucket names and key prefixes accept. */
export const sanitize = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** Tag values and group descriptions accept only some characters: anything else becomes '-'. */
export const safeTagValue = (value: string) => value.replace(/[^A-Za-z0-9 _.:/=+@-]/g, '-').slice(0, 200);

export const ref = (name: string) => ({ Ref: name });
export const getAtt = (resource: string, attribute: string) => ({ 'Fn::GetAtt': [resource, attribute] });
export const sub = (text: string) => ({ 'Fn::Sub': text });

/** What the parts of one cluster's document are built from once its settings are checked. */
export interface TemplateContext {
  settings: ClusterTemplateSettings;
  deploymentId: string;
  /** Disaster recovery: backups replicated to the backup region. */
  dr: boolean;
  /** The deployment id and cluster name tags every tagged resource carries. */
  commonTags: { Key: string; Value: string }[];
  /** The common tags with a Name made from the stack's name and `name`. */
  named: (name: string) => unknown[];
}

export type Resources = CloudFormationTemplate['Resources'];
