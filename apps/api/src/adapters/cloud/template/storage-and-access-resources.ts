import { CLUSTER_SQL_USER } from '@kumo/contract';
import { PORTAL_SQL_USER } from '../sql-port.js';
import { KUMO_MANAGER_USER, WEB_PORTAL_USER } from './node-layout.js';
import {
  TAG_KEYS,
  TEMPLATE_PARAMETERS,
  backupPrefixFor,
  getAtt,
  ref,
  safeTagValue,
  sanitize,
  sub,
  type Resources,
  type TemplateContext,
} from './template-names.js';

/**
 * The cluster's secrets and storage and who may use them: the password and portal credential secrets, the backup bucket (replicated to the
 * backup region with DR), the nodes' role and instance profile, and with DR the replication role.
 */
export function storageAndAccessResources({ settings, deploymentId, dr, commonTags }: TemplateContext): Resources {
  // A fixed name lets the replication role name the bucket without a circular reference.
  const bucketName = `kumo-${sanitize(deploymentId).slice(0, 36)}-\${AWS::AccountId}`;
  const resources: Resources = {
    ClusterPasswordSecret: {
      Type: 'AWS::SecretsManager::Secret',
      // The password goes with the cluster: nothing of it is kept once the stack is deleted.
      DeletionPolicy: 'Delete',
      UpdateReplacePolicy: 'Delete',
      Properties: {
        Description: `Kumo cluster ${safeTagValue(settings.clusterName)}: password of ${KUMO_MANAGER_USER}, ${WEB_PORTAL_USER} and ${CLUSTER_SQL_USER}`,
        SecretString: ref(TEMPLATE_PARAMETERS.password),
        Tags: commonTags,
      },
    },
    // The portal's own SQL credential, handed to the nodes as the password is; the AMI keeps only its slow hash.
    PortalSqlCredentialSecret: {
      Type: 'AWS::SecretsManager::Secret',
      DeletionPolicy: 'Delete',
      UpdateReplacePolicy: 'Delete',
      Properties: {
        Description: `Kumo cluster ${safeTagValue(settings.clusterName)}: password of the SQL endpoint's user ${PORTAL_SQL_USER}`,
        SecretString: ref(TEMPLATE_PARAMETERS.portalSqlCredential),
        Tags: commonTags,
      },
    },
    BackupBucket: {
      Type: 'AWS::S3::Bucket',
      DeletionPolicy: 'Delete',
      Properties: {
        BucketName: sub(bucketName),
        VersioningConfiguration: { Status: 'Enabled' },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        ...(dr
          ? {
              ReplicationConfiguration: {
                Role: getAtt('BackupReplicationRole', 'Arn'),
                Rules: [
                  {
                    Id: 'kumo-disaster-recovery',
                    Status: 'Enabled',
                    Priority: 1,
                    Filter: { Prefix: backupPrefixFor(deploymentId) },
                    DeleteMarkerReplication: { Status: 'Disabled' },
                    Destination: { Bucket: ref(TEMPLATE_PARAMETERS.backupDestinationBucketArn), StorageClass: 'STANDARD_IA' },
                  },
                ],
              },
            }
          : {}),
        Tags: commonTags,
      },
    },
    NodeRole: {
      Type: 'AWS::IAM::Role',
      Properties: {
        AssumeRolePolicyDocument: {
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
        },
        Policies: [
          {
            PolicyName: 'kumo-node',
            PolicyDocument: {
              Version: '2012-10-17',
              Statement: [
                {
                  Effect: 'Allow',
                  Action: 'secretsmanager:GetSecretValue',
                  Resource: [ref('ClusterPasswordSecret'), ref('PortalSqlCredentialSecret')],
                },
                {
                  Effect: 'Allow',
                  Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
                  Resource: sub('arn:${AWS::Partition}:s3:::${BackupBucket}/*'),
                },
                { Effect: 'Allow', Action: 's3:ListBucket', Resource: getAtt('BackupBucket', 'Arn') },
                // The installer reports the deployment status as a tag on its own instance.
                {
                  Effect: 'Allow',
                  Action: 'ec2:CreateTags',
                  Resource: sub('arn:${AWS::Partition}:ec2:${AWS::Region}:${AWS::AccountId}:instance/*'),
                  Condition: {
                    StringEquals: { [`aws:ResourceTag/${TAG_KEYS.deploymentId}`]: deploymentId },
                    'ForAllValues:StringEquals': { 'aws:TagKeys': [TAG_KEYS.deploymentStatus] },
                  },
                },
              ],
            },
          },
        ],
        Tags: commonTags,
      },
    },
    NodeInstanceProfile: { Type: 'AWS::IAM::InstanceProfile', Properties: { Roles: [ref('NodeRole')] } },
  };

  if (dr) {
    resources.BackupReplicationRole = {
      Type: 'AWS::IAM::Role',
      Properties: {
        AssumeRolePolicyDocument: {
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Principal: { Service: 's3.amazonaws.com' }, Action: 'sts:AssumeRole' }],
        },
        Policies: [
          {
            PolicyName: 'kumo-backup-replication',
            PolicyDocument: {
              Version: '2012-10-17',
              Statement: [
                {
                  Effect: 'Allow',
                  Action: ['s3:GetReplicationConfiguration', 's3:ListBucket'],
                  Resource: sub(`arn:\${AWS::Partition}:s3:::${bucketName}`),
                },
                {
                  Effect: 'Allow',
                  Action: ['s3:GetObjectVersionForReplication', 's3:GetObjectVersionAcl', 's3:GetObjectVersionTagging'],
                  Resource: sub(`arn:\${AWS::Partition}:s3:::${bucketName}/*`),
                },
                {
                  Effect: 'Allow',
                  Action: ['s3:ReplicateObject', 's3:ReplicateDelete', 's3:ReplicateTags'],
                  Resource: sub(`\${${TEMPLATE_PARAMETERS.backupDestinationBucketArn}}/${backupPrefixFor(deploymentId)}*`),
                },
              ],
            },
          },
        ],
        Tags: commonTags,
      },
    };
  }
  return resources;
}
