import { NODE_LAYOUT, QUERY_ENGINE_NUMBERS, layoutNodes, type NodeRole, type NodeRoleLayout } from './node-layout.js';
import {
  TAG_KEYS,
  TEMPLATE_PARAMETERS,
  backupPrefixFor,
  getAtt,
  ref,
  sub,
  type Resources,
  type TemplateContext,
} from './template-names.js';

/** Roles placed in the public subnet (reachable by customers); the rest run in the private one. */
const PUBLIC_ROLES: readonly NodeRole[] = ['PERIPHERAL_SERVICES', 'BI_SERVER'];

/** One launch template per role: the Kumo AMI, its volumes, and the installer run at first boot for the role. */
function launchTemplate({ settings, deploymentId }: TemplateContext, layout: NodeRoleLayout): Resources[string] {
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
  return {
    Type: 'AWS::EC2::LaunchTemplate',
    Properties: {
      LaunchTemplateData: {
        ImageId: ref(TEMPLATE_PARAMETERS.amiId),
        InstanceType: layout.role === 'QUERY_ENGINES' ? ref(TEMPLATE_PARAMETERS.queryEngineInstanceType) : layout.instanceType,
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
                '--portal-sql-secret ${PortalSqlCredentialSecret}',
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

/** The nodes: a launch template per role, an instance per node of the layout, and the portal's fixed public address. */
export function nodeResources(context: TemplateContext): Resources {
  const { settings, commonTags, named } = context;
  const resources: Resources = {};

  for (const layout of NODE_LAYOUT) resources[`${layout.templateId}LaunchTemplate`] = launchTemplate(context, layout);

  for (const node of layoutNodes()) {
    const layout = NODE_LAYOUT.find((r) => r.role === node.role)!;
    resources[node.logicalId] = {
      Type: 'AWS::EC2::Instance',
      ...(node.role === 'QUERY_ENGINES' && node.index > 1 ? { Condition: queryEngineCondition(node.index) } : {}),
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
  return resources;
}

/** The condition under which query engine k (2 to 5) stands: the count parameter is k or more. */
export const queryEngineCondition = (k: number) => `HasQueryEngine${k}`;

/** Engine k stands for the counts k … 5 (CloudFormation compares only for equality). */
export function queryEngineConditions(): Record<string, unknown> {
  const count = ref(TEMPLATE_PARAMETERS.queryEngineCount);
  const conditions: Record<string, unknown> = {};
  for (const k of QUERY_ENGINE_NUMBERS.filter((n) => n > 1)) {
    const equals = QUERY_ENGINE_NUMBERS.filter((n) => n >= k).map((n) => ({ 'Fn::Equals': [count, String(n)] }));
    conditions[queryEngineCondition(k)] = equals.length === 1 ? equals[0] : { 'Fn::Or': equals };
  }
  return conditions;
}
