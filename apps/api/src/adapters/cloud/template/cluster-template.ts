/**
 * The deployment template: a pure function from a cluster's settings to the CloudFormation JSON
 * document that creates it. The AWS driver sends it with CreateStack; staff download the same
 * document. Nothing here talks to AWS, and the password never enters the document: it is the
 * NoEcho parameter ClusterPassword, given once at stack creation and kept in Secrets Manager.
 */
import type { ClusterSettings } from '../cloud-provisioner.js';
import { formatCidr, parseCidr, subnetOf } from './cidr.js';
import { KUMO_MANAGER_USER, NODE_LAYOUT, WEB_PORTAL_USER, layoutNodes, type NodeRole } from './node-layout.js';

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
  amiId: 'KumoAmiId',
  keyName: 'KeyName',
  ingressCidr: 'AllowedIngressCidr',
  backupDestinationBucketArn: 'BackupDestinationBucketArn',
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

const sanitize = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** Tag values and group descriptions accept only some characters: anything else becomes '-'. */
export const safeTagValue = (value: string) => value.replace(/[^A-Za-z0-9 _.:/=+@-]/g, '-').slice(0, 200);

const REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;
const VERSION = /^[0-9A-Za-z._-]{1,40}$/;

/** Roles placed in the public subnet (reachable by customers); the rest run in the private one. */
const PUBLIC_ROLES: readonly NodeRole[] = ['PERIPHERAL_SERVICES', 'BI_SERVER'];

const ref = (name: string) => ({ Ref: name });
const getAtt = (resource: string, attribute: string) => ({ 'Fn::GetAtt': [resource, attribute] });
const sub = (text: string) => ({ 'Fn::Sub': text });

/** Builds the CloudFormation document of one cluster. Throws TemplateSettingsError on unusable settings. */
export function generateClusterTemplate(settings: ClusterTemplateSettings): CloudFormationTemplate {
  const vpc = parseCidr(settings.cidr);
  if (!vpc) throw new TemplateSettingsError(`Invalid CIDR block ${settings.cidr}`);
  if (vpc.prefix < 16 || vpc.prefix > 26) throw new TemplateSettingsError(`The VPC block must be a /16 to a /26, got /${vpc.prefix}`);
  if (!REGION.test(settings.region)) throw new TemplateSettingsError(`Invalid region ${settings.region}`);
  if (settings.backupRegion !== null) {
    if (!REGION.test(settings.backupRegion)) throw new TemplateSettingsError(`Invalid backup region ${settings.backupRegion}`);
    if (settings.backupRegion === settings.region) throw new TemplateSettingsError('The backup region must differ from the region');
  }
  if (!VERSION.test(settings.kumoVersion)) throw new TemplateSettingsError(`Invalid Kumo version ${settings.kumoVersion}`);
  if (!sanitize(settings.deploymentId)) throw new TemplateSettingsError('A deployment id is required');

  const dr = settings.backupRegion !== null;
  const deploymentId = settings.deploymentId;
  // Quarters of the VPC: public, private; the second half is left free for later growth.
  const publicSubnet = formatCidr(subnetOf(vpc, vpc.prefix + 2, 0));
  const privateSubnet = formatCidr(subnetOf(vpc, vpc.prefix + 2, 1));

  const commonTags = [
    { Key: TAG_KEYS.deploymentId, Value: deploymentId },
    { Key: TAG_KEYS.clusterName, Value: safeTagValue(settings.clusterName) },
  ];
  const named = (name: string) => [{ Key: 'Name', Value: sub(`\${AWS::StackName}-${name}`) }, ...commonTags];

  const parameters: CloudFormationTemplate['Parameters'] = {
    [TEMPLATE_PARAMETERS.password]: {
      Type: 'String',
      NoEcho: true,
      MinLength: 12,
      MaxLength: 64,
      Description: `Password of the Kumo Manager user ${KUMO_MANAGER_USER} and the Web Portal user ${WEB_PORTAL_USER}`,
    },
    [TEMPLATE_PARAMETERS.amiId]: {
      Type: 'AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>',
      Default: amiParameterPath(settings.kumoVersion),
      Description: `SSM parameter holding the AMI id of Kumo ${settings.kumoVersion}`,
    },
    [TEMPLATE_PARAMETERS.keyName]: {
      Type: 'String',
      Default: '',
      Description: 'Optional EC2 key pair for operator SSH access (empty: none)',
    },
    [TEMPLATE_PARAMETERS.ingressCidr]: {
      Type: 'String',
      Default: '0.0.0.0/0',
      AllowedPattern: '^(\\d{1,3}\\.){3}\\d{1,3}/\\d{1,2}$',
      Description: 'Addresses allowed to reach the Web Portal and Kumo Manager (HTTPS)',
    },
  };
  if (dr) {
    parameters[TEMPLATE_PARAMETERS.backupDestinationBucketArn] = {
      Type: 'String',
      AllowedPattern: '^arn:aws[a-z-]*:s3:::[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
      Description: `ARN of the versioned backup bucket in ${settings.backupRegion} that receives the replicated backups`,
    };
  }

  const resources: CloudFormationTemplate['Resources'] = {
    Vpc: {
      Type: 'AWS::EC2::VPC',
      Properties: { CidrBlock: formatCidr(vpc), EnableDnsSupport: true, EnableDnsHostnames: true, Tags: named('vpc') },
    },
    InternetGateway: { Type: 'AWS::EC2::InternetGateway', Properties: { Tags: named('igw') } },
    InternetGatewayAttachment: {
      Type: 'AWS::EC2::VPCGatewayAttachment',
      Properties: { VpcId: ref('Vpc'), InternetGatewayId: ref('InternetGateway') },
    },
    PublicSubnet: {
      Type: 'AWS::EC2::Subnet',
      Properties: {
        VpcId: ref('Vpc'),
        CidrBlock: publicSubnet,
        AvailabilityZone: { 'Fn::Select': [0, { 'Fn::GetAZs': '' }] },
        MapPublicIpOnLaunch: false,
        Tags: named('public'),
      },
    },
    PrivateSubnet: {
      Type: 'AWS::EC2::Subnet',
      Properties: {
        VpcId: ref('Vpc'),
        CidrBlock: privateSubnet,
        // Same zone as the public subnet: cluster traffic stays inside one zone.
        AvailabilityZone: { 'Fn::Select': [0, { 'Fn::GetAZs': '' }] },
        Tags: named('private'),
      },
    },
    PublicRouteTable: { Type: 'AWS::EC2::RouteTable', Properties: { VpcId: ref('Vpc'), Tags: named('public') } },
    PublicDefaultRoute: {
      Type: 'AWS::EC2::Route',
      DependsOn: 'InternetGatewayAttachment',
      Properties: { RouteTableId: ref('PublicRouteTable'), DestinationCidrBlock: '0.0.0.0/0', GatewayId: ref('InternetGateway') },
    },
    PublicSubnetRouteTableAssociation: {
      Type: 'AWS::EC2::SubnetRouteTableAssociation',
      Properties: { SubnetId: ref('PublicSubnet'), RouteTableId: ref('PublicRouteTable') },
    },
    NatAddress: { Type: 'AWS::EC2::EIP', DependsOn: 'InternetGatewayAttachment', Properties: { Domain: 'vpc', Tags: named('nat') } },
    NatGateway: {
      Type: 'AWS::EC2::NatGateway',
      Properties: { AllocationId: getAtt('NatAddress', 'AllocationId'), SubnetId: ref('PublicSubnet'), Tags: named('nat') },
    },
    PrivateRouteTable: { Type: 'AWS::EC2::RouteTable', Properties: { VpcId: ref('Vpc'), Tags: named('private') } },
    PrivateDefaultRoute: {
      Type: 'AWS::EC2::Route',
      Properties: { RouteTableId: ref('PrivateRouteTable'), DestinationCidrBlock: '0.0.0.0/0', NatGatewayId: ref('NatGateway') },
    },
    PrivateSubnetRouteTableAssociation: {
      Type: 'AWS::EC2::SubnetRouteTableAssociation',
      Properties: { SubnetId: ref('PrivateSubnet'), RouteTableId: ref('PrivateRouteTable') },
    },
    // Backup and data traffic to S3 bypasses the NAT gateway (cheaper, stays on the AWS network).
    S3Endpoint: {
      Type: 'AWS::EC2::VPCEndpoint',
      Properties: {
        VpcId: ref('Vpc'),
        ServiceName: sub('com.amazonaws.${AWS::Region}.s3'),
        VpcEndpointType: 'Gateway',
        RouteTableIds: [ref('PublicRouteTable'), ref('PrivateRouteTable')],
      },
    },
    ClusterSecurityGroup: {
      Type: 'AWS::EC2::SecurityGroup',
      Properties: {
        GroupDescription: `Kumo cluster ${safeTagValue(settings.clusterName)}`,
        VpcId: ref('Vpc'),
        SecurityGroupIngress: [
          {
            IpProtocol: 'tcp',
            FromPort: 443,
            ToPort: 443,
            CidrIp: ref(TEMPLATE_PARAMETERS.ingressCidr),
            Description: 'Web Portal and Kumo Manager',
          },
        ],
        Tags: named('nodes'),
      },
    },
    // Nodes talk to each other on any port; a separate rule because a group cannot name itself inline.
    ClusterSecurityGroupSelfIngress: {
      Type: 'AWS::EC2::SecurityGroupIngress',
      Properties: {
        GroupId: ref('ClusterSecurityGroup'),
        IpProtocol: '-1',
        SourceSecurityGroupId: ref('ClusterSecurityGroup'),
        Description: 'Traffic between the nodes of the cluster',
      },
    },
    ClusterPasswordSecret: {
      Type: 'AWS::SecretsManager::Secret',
      // The password goes with the cluster: nothing of it is kept once the stack is deleted.
      DeletionPolicy: 'Delete',
      UpdateReplacePolicy: 'Delete',
      Properties: {
        Description: `Kumo cluster ${safeTagValue(settings.clusterName)}: password of ${KUMO_MANAGER_USER} and ${WEB_PORTAL_USER}`,
        SecretString: ref(TEMPLATE_PARAMETERS.password),
        Tags: commonTags,
      },
    },
    BackupBucket: {
      Type: 'AWS::S3::Bucket',
      DeletionPolicy: 'Delete',
      Properties: {
        // A fixed name lets the replication role name the bucket without a circular reference.
        BucketName: sub(`kumo-${sanitize(deploymentId).slice(0, 36)}-\${AWS::AccountId}`),
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
                { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: ref('ClusterPasswordSecret') },
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
                  Resource: sub(`arn:\${AWS::Partition}:s3:::kumo-${sanitize(deploymentId).slice(0, 36)}-\${AWS::AccountId}`),
                },
                {
                  Effect: 'Allow',
                  Action: ['s3:GetObjectVersionForReplication', 's3:GetObjectVersionAcl', 's3:GetObjectVersionTagging'],
                  Resource: sub(`arn:\${AWS::Partition}:s3:::kumo-${sanitize(deploymentId).slice(0, 36)}-\${AWS::AccountId}/*`),
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

  for (const layout of NODE_LAYOUT) {
    const launchTemplate = `${layout.templateId}LaunchTemplate`;
    const blockDevices: unknown[] = [
      { DeviceName: '/dev/xvda', Ebs: { VolumeSize: layout.rootVolumeGb, VolumeType: 'gp3', Encrypted: true, DeleteOnTermination: true } },
    ];
    if (layout.cacheVolumeGb > 0) {
      blockDevices.push({
        DeviceName: '/dev/sdf',
        Ebs: { VolumeSize: layout.cacheVolumeGb, VolumeType: 'gp3', Encrypted: true, DeleteOnTermination: true },
      });
    }
    if (layout.persistentVolumeGb > 0) {
      blockDevices.push({
        DeviceName: '/dev/sdg',
        Ebs: { VolumeSize: layout.persistentVolumeGb, VolumeType: 'gp3', Encrypted: true, DeleteOnTermination: true },
      });
    }
    resources[launchTemplate] = {
      Type: 'AWS::EC2::LaunchTemplate',
      Properties: {
        LaunchTemplateData: {
          ImageId: ref(TEMPLATE_PARAMETERS.amiId),
          InstanceType: layout.instanceType,
          KeyName: { 'Fn::If': ['HasKeyName', ref(TEMPLATE_PARAMETERS.keyName), ref('AWS::NoValue')] },
          IamInstanceProfile: { Arn: getAtt('NodeInstanceProfile', 'Arn') },
          SecurityGroupIds: [ref('ClusterSecurityGroup')],
          BlockDeviceMappings: blockDevices,
          MetadataOptions: { HttpTokens: 'required', InstanceMetadataTags: 'enabled' },
          UserData: {
            'Fn::Base64': sub(
              [
                '#!/bin/bash',
                '# The Kumo installer of the AMI configures this node for its role and, on the Peripheral node,',
                `# tags the instance ${TAG_KEYS.deploymentStatus}=KUMO_CLUSTER_DEPLOYMENT_IN_PROGRESS|_COMPLETE|_FAILED.`,
                [
                  '/opt/kumo/bin/kumo-node-setup',
                  `--role ${layout.role}`,
                  `--version ${settings.kumoVersion}`,
                  '--stack ${AWS::StackName}',
                  '--region ${AWS::Region}',
                  '--password-secret ${ClusterPasswordSecret}',
                  '--backup-bucket ${BackupBucket}',
                  `--backup-prefix ${backupPrefixFor(deploymentId)}`,
                ].join(' '),
                '',
              ].join('\n'),
            ),
          },
        },
      },
    };
  }

  for (const node of layoutNodes()) {
    const layout = NODE_LAYOUT.find((r) => r.role === node.role)!;
    resources[node.logicalId] = {
      Type: 'AWS::EC2::Instance',
      // Private nodes need the NAT route to fetch packages at first boot.
      DependsOn: PUBLIC_ROLES.includes(node.role) ? 'PublicDefaultRoute' : 'PrivateDefaultRoute',
      Properties: {
        LaunchTemplate: {
          LaunchTemplateId: ref(`${layout.templateId}LaunchTemplate`),
          Version: getAtt(`${layout.templateId}LaunchTemplate`, 'LatestVersionNumber'),
        },
        SubnetId: ref(PUBLIC_ROLES.includes(node.role) ? 'PublicSubnet' : 'PrivateSubnet'),
        Tags: [
          { Key: 'Name', Value: sub(`\${AWS::StackName}-${node.host}`) },
          ...commonTags,
          { Key: TAG_KEYS.role, Value: node.role },
          { Key: TAG_KEYS.node, Value: node.host },
          { Key: TAG_KEYS.version, Value: settings.kumoVersion },
        ],
      },
    };
  }

  // A fixed public address for the Web Portal and Kumo Manager, kept across stop and start.
  resources.PortalAddress = {
    Type: 'AWS::EC2::EIP',
    DependsOn: 'InternetGatewayAttachment',
    Properties: { Domain: 'vpc', Tags: named('portal') },
  };
  const peripheral = layoutNodes().find((n) => n.role === 'PERIPHERAL_SERVICES')!;
  resources.PortalAddressAssociation = {
    Type: 'AWS::EC2::EIPAssociation',
    Properties: { AllocationId: getAtt('PortalAddress', 'AllocationId'), InstanceId: ref(peripheral.logicalId) },
  };

  return {
    AWSTemplateFormatVersion: '2010-09-09',
    Description: `Kumo Analytics Cloud cluster ${settings.clusterName} (Kumo ${settings.kumoVersion}, deployment ${deploymentId})`,
    Metadata: {
      'Kumo::Cluster': {
        DeploymentId: deploymentId,
        ClusterName: settings.clusterName,
        Region: settings.region,
        // CloudFormation refuses null anywhere in a document: no backup region, no key.
        ...(settings.backupRegion ? { BackupRegion: settings.backupRegion } : {}),
        Cidr: formatCidr(vpc),
        KumoVersion: settings.kumoVersion,
      },
    },
    Parameters: parameters,
    Conditions: { HasKeyName: { 'Fn::Not': [{ 'Fn::Equals': [ref(TEMPLATE_PARAMETERS.keyName), ''] }] } },
    Resources: resources,
    Outputs: {
      [TEMPLATE_OUTPUTS.managerUrl]: {
        Description: `Kumo Manager (user ${KUMO_MANAGER_USER})`,
        Value: sub('https://${PortalAddress}/manager/'),
      },
      [TEMPLATE_OUTPUTS.portalUrl]: { Description: `Web Portal (user ${WEB_PORTAL_USER})`, Value: sub('https://${PortalAddress}/') },
      [TEMPLATE_OUTPUTS.deploymentId]: { Value: deploymentId },
      [TEMPLATE_OUTPUTS.backupBucket]: { Value: ref('BackupBucket') },
      VpcId: { Value: ref('Vpc') },
    },
  };
}

/** The document as staff download it and as CreateStack receives it. */
export function renderClusterTemplate(settings: ClusterTemplateSettings): string {
  return JSON.stringify(generateClusterTemplate(settings), null, 2);
}
