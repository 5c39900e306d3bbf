import { describe, expect, it } from 'vitest';
import { cidrContains, cidrsOverlap, formatCidr, parseCidr, subnetOf } from './cidr.js';
import {
  TAG_KEYS,
  TEMPLATE_OUTPUTS,
  TEMPLATE_PARAMETERS,
  TemplateSettingsError,
  generateClusterTemplate,
  renderClusterTemplate,
  type CloudFormationTemplate,
  type ClusterTemplateSettings,
} from './cluster-template.js';
import {
  CLUSTER_CACHE_STORAGE_GB,
  CLUSTER_NODE_COUNT,
  CLUSTER_PERSISTENT_STORAGE_GB,
  NODE_LAYOUT,
  capacityFromNodes,
  capacityFromRunningQueryEngines,
  layoutNodes,
  runningCores,
} from './node-layout.js';
import { collectReferences, danglingReferences, subVariables } from './template-references.js';

const base: ClusterTemplateSettings = {
  deploymentId: '3f1c1b2e-9a7d-4c1e-8f00-123456789abc',
  clusterName: 'Sales analytics',
  region: 'us-east-1',
  backupRegion: null,
  cidr: '10.20.0.0/16',
  kumoVersion: '1.4.0',
};
const withDr: ClusterTemplateSettings = { ...base, backupRegion: 'us-west-2' };

const ofType = (t: CloudFormationTemplate, type: string) => Object.entries(t.Resources).filter(([, r]) => r.Type === type);

describe('node layout', () => {
  it('has the four roles with five query engines and eight nodes in all', () => {
    expect(NODE_LAYOUT.map((r) => [r.label, r.nodeCount])).toEqual([
      ['BI Server', 1],
      ['Query Engines', 5],
      ['Build', 1],
      ['Peripheral services', 1],
    ]);
    expect(CLUSTER_NODE_COUNT).toBe(8);
    expect(layoutNodes()).toHaveLength(8);
    expect(new Set(layoutNodes().map((n) => n.host)).size).toBe(8);
    expect(CLUSTER_CACHE_STORAGE_GB).toBe(1000);
    expect(CLUSTER_PERSISTENT_STORAGE_GB).toBe(500);
  });

  it('computes capacity from running query engines, clamped to 0..5', () => {
    expect([-1, 0, 1, 3, 5, 7, Number.NaN].map(capacityFromRunningQueryEngines)).toEqual([0, 0, 1, 3, 5, 5, 0]);
    const nodes = layoutNodes().map((n) => ({ role: n.role, running: n.role !== 'QUERY_ENGINES' || n.index <= 2 }));
    expect(capacityFromNodes(nodes)).toBe(2);
    expect(capacityFromNodes(nodes.map((n) => ({ ...n, running: false })))).toBe(0);
    expect(runningCores('QUERY_ENGINES', 3)).toBe(48);
    expect(runningCores('BI_SERVER', 4)).toBe(8);
  });
});

describe('cidr', () => {
  it('parses, formats, cuts and compares blocks', () => {
    expect(parseCidr('10.20.0.0/16')).toEqual({ network: 0x0a140000, prefix: 16 });
    expect(parseCidr('10.20.0.1/16')).toBeNull();
    expect(parseCidr('10.256.0.0/16')).toBeNull();
    expect(parseCidr('10.20.0.0')).toBeNull();
    const vpc = parseCidr('10.20.0.0/16')!;
    expect(formatCidr(subnetOf(vpc, 18, 3))).toBe('10.20.192.0/18');
    expect(() => subnetOf(vpc, 18, 4)).toThrow(RangeError);
    expect(cidrContains(vpc, parseCidr('10.20.64.0/18')!)).toBe(true);
    expect(cidrContains(vpc, parseCidr('10.21.0.0/18')!)).toBe(false);
    expect(cidrsOverlap(parseCidr('10.0.0.0/8')!, vpc)).toBe(true);
    expect(cidrsOverlap(parseCidr('10.21.0.0/16')!, vpc)).toBe(false);
  });
});

describe('cluster template', () => {
  it('is valid JSON that round-trips to the generated document', () => {
    const text = renderClusterTemplate(withDr);
    expect(JSON.parse(text)).toEqual(generateClusterTemplate(withDr));
    expect(JSON.parse(text).AWSTemplateFormatVersion).toBe('2010-09-09');
    // CloudFormation (and cfn-lint, E4002) refuse null values anywhere in a document.
    for (const settings of [base, withDr]) expect(JSON.stringify(generateClusterTemplate(settings))).not.toContain('null');
    // CreateStack accepts at most 51,200 bytes of TemplateBody; the driver sends the compact form.
    expect(Buffer.byteLength(JSON.stringify(generateClusterTemplate(withDr)))).toBeLessThan(51_200);
  });

  it.each([
    ['without disaster recovery', base],
    ['with disaster recovery', withDr],
  ])('refers only to parameters, resources and conditions it defines (%s)', (_, settings) => {
    const template = generateClusterTemplate(settings);
    const references = collectReferences(template);
    // The walk really reaches every kind of reference.
    expect(new Set(references.map((r) => r.kind))).toEqual(new Set(['Ref', 'Fn::GetAtt', 'Fn::Sub', 'DependsOn', 'Condition']));
    expect(danglingReferences(template)).toEqual([]);
    // Every parameter is used somewhere.
    const used = new Set(references.map((r) => r.name));
    for (const parameter of Object.keys(template.Parameters)) expect(used, parameter).toContain(parameter);
  });

  it('catches a dangling reference wherever it hides', () => {
    const template = generateClusterTemplate(base);
    template.Resources.Vpc!.Properties!.Tags = [
      { Key: 'x', Value: { 'Fn::Join': ['', [{ Ref: 'Nowhere' }, { 'Fn::Sub': '${Gone.Arn}-${!Literal}-${AWS::Region}' }]] } },
    ];
    template.Resources.Extra = {
      Type: 'AWS::SNS::Topic',
      DependsOn: ['Vpc', 'Missing'],
      Properties: { TopicName: { 'Fn::GetAtt': 'Absent.Name' } },
    };
    template.Outputs.Bad = { Value: { 'Fn::If': ['NoSuchCondition', 'a', 'b'] } };
    expect(danglingReferences(template).map((r) => `${r.kind}:${r.name}`)).toEqual([
      'Ref:Nowhere',
      'Fn::Sub:Gone',
      'DependsOn:Missing',
      'Fn::GetAtt:Absent',
      'Condition:NoSuchCondition',
    ]);
    expect(subVariables('${A} ${B.Arn} ${!C} ${AWS::Region}')).toEqual(['A', 'B', 'AWS::Region']);
  });

  it('takes the password as a NoEcho parameter and never writes it into the document', () => {
    const template = generateClusterTemplate(base);
    expect(template.Parameters[TEMPLATE_PARAMETERS.password]).toMatchObject({ Type: 'String', NoEcho: true, MinLength: 12 });
    expect(template.Resources.ClusterPasswordSecret!.Properties!.SecretString).toEqual({ Ref: TEMPLATE_PARAMETERS.password });
    // The only place the password parameter is used is the secret.
    const uses = collectReferences(template).filter((r) => r.name === TEMPLATE_PARAMETERS.password);
    expect(uses.map((r) => r.path)).toEqual(['Resources.ClusterPasswordSecret.Properties.SecretString.Ref']);
    expect(template.Parameters[TEMPLATE_PARAMETERS.amiId]).toMatchObject({
      Type: 'AWS::SSM::Parameter::Value<AWS::EC2::Image::Id>',
      Default: '/kumo/ami/1.4.0',
    });
  });

  it("takes the portal's SQL credential as a NoEcho parameter and hands it to the nodes through a secret only they read", () => {
    const template = generateClusterTemplate(base);
    expect(template.Parameters[TEMPLATE_PARAMETERS.portalSqlCredential]).toMatchObject({ Type: 'String', NoEcho: true, MinLength: 32 });
    expect(template.Parameters[TEMPLATE_PARAMETERS.portalSqlCredential]).not.toHaveProperty('Default');
    const uses = collectReferences(template).filter((r) => r.name === TEMPLATE_PARAMETERS.portalSqlCredential);
    expect(uses.map((r) => r.path)).toEqual(['Resources.PortalSqlCredentialSecret.Properties.SecretString.Ref']);
    const policy = JSON.stringify(template.Resources.NodeRole!.Properties!.Policies);
    expect(policy).toContain('{"Ref":"PortalSqlCredentialSecret"}');
    const launchTemplates = ofType(template, 'AWS::EC2::LaunchTemplate');
    expect(launchTemplates).toHaveLength(NODE_LAYOUT.length);
    for (const [, launchTemplate] of launchTemplates) {
      expect(JSON.stringify(launchTemplate)).toContain('--portal-sql-secret ${PortalSqlCredentialSecret}');
    }
    // Never an output: the credential stays out of what DescribeStacks shows.
    expect(JSON.stringify(template.Outputs)).not.toContain('PortalSqlCredential');
  });

  it('builds the VPC from the CIDR with subnets inside it that do not overlap', () => {
    for (const cidr of ['10.20.0.0/16', '172.16.0.0/20', '192.168.4.0/24', '10.1.2.0/26']) {
      const template = generateClusterTemplate({ ...base, cidr });
      expect(template.Resources.Vpc!.Properties!.CidrBlock).toBe(cidr);
      const subnets = ofType(template, 'AWS::EC2::Subnet').map(([, r]) => parseCidr(r.Properties!.CidrBlock as string)!);
      expect(subnets).toHaveLength(2);
      const vpc = parseCidr(cidr)!;
      for (const subnet of subnets) {
        expect(cidrContains(vpc, subnet)).toBe(true);
        expect(subnet.prefix).toBeLessThanOrEqual(28);
      }
      expect(cidrsOverlap(subnets[0]!, subnets[1]!)).toBe(false);
    }
    expect(generateClusterTemplate(base).Resources.PublicSubnet!.Properties!.CidrBlock).toBe('10.20.0.0/18');
    expect(generateClusterTemplate(base).Resources.PrivateSubnet!.Properties!.CidrBlock).toBe('10.20.64.0/18');
  });

  it('has one launch template per role and one tagged instance per node', () => {
    const template = generateClusterTemplate(base);
    expect(ofType(template, 'AWS::EC2::LaunchTemplate')).toHaveLength(NODE_LAYOUT.length);
    const instances = ofType(template, 'AWS::EC2::Instance');
    expect(instances).toHaveLength(8);
    const tagsOf = (r: (typeof instances)[number][1]) =>
      Object.fromEntries((r.Properties!.Tags as { Key: string; Value: unknown }[]).map((t) => [t.Key, t.Value]));
    const roles = instances.map(([, r]) => tagsOf(r)[TAG_KEYS.role]);
    expect(roles.filter((r) => r === 'QUERY_ENGINES')).toHaveLength(5);
    for (const [, r] of instances) expect(tagsOf(r)[TAG_KEYS.deploymentId]).toBe(base.deploymentId);
    const queryEngineTemplate = template.Resources.QueryEngineLaunchTemplate!.Properties!.LaunchTemplateData as Record<string, unknown>;
    expect(queryEngineTemplate.InstanceType).toEqual({ Ref: TEMPLATE_PARAMETERS.queryEngineInstanceType });
    expect(template.Parameters[TEMPLATE_PARAMETERS.queryEngineInstanceType]).toMatchObject({ Default: 'r6i.4xlarge' });
    expect(ofType(template, 'AWS::EC2::SecurityGroup')).toHaveLength(1);
  });

  it("takes the query engines' instance type and count as parameters, each engine past the first standing by the count", () => {
    const template = generateClusterTemplate({ ...base, queryEngines: { instanceType: 'r6i.2xlarge', count: 2 } });
    expect(template.Parameters[TEMPLATE_PARAMETERS.queryEngineInstanceType]).toMatchObject({
      Default: 'r6i.2xlarge',
      AllowedValues: ['r6i.xlarge', 'r6i.2xlarge', 'r6i.4xlarge', 'r6i.8xlarge', 'r6i.16xlarge'],
    });
    expect(template.Parameters[TEMPLATE_PARAMETERS.queryEngineCount]).toMatchObject({
      Default: '2',
      AllowedValues: ['1', '2', '3', '4', '5'],
    });
    expect(template.Resources.QueryEngine1!.Condition).toBeUndefined();
    expect(template.Resources.QueryEngine2!.Condition).toBe('HasQueryEngine2');
    const count = { Ref: TEMPLATE_PARAMETERS.queryEngineCount };
    expect(template.Conditions!.HasQueryEngine4).toEqual({
      'Fn::Or': [{ 'Fn::Equals': [count, '4'] }, { 'Fn::Equals': [count, '5'] }],
    });
    expect(template.Conditions!.HasQueryEngine5).toEqual({ 'Fn::Equals': [count, '5'] });
  });

  it('replicates the backup bucket to the backup region only with disaster recovery', () => {
    const off = generateClusterTemplate(base);
    const on = generateClusterTemplate(withDr);
    expect(off.Resources.BackupBucket!.Properties!.ReplicationConfiguration).toBeUndefined();
    expect(off.Resources.BackupReplicationRole).toBeUndefined();
    expect(off.Parameters[TEMPLATE_PARAMETERS.backupDestinationBucketArn]).toBeUndefined();

    const replication = on.Resources.BackupBucket!.Properties!.ReplicationConfiguration as {
      Role: unknown;
      Rules: { Destination: { Bucket: unknown }; Filter: { Prefix: string } }[];
    };
    expect(replication.Role).toEqual({ 'Fn::GetAtt': ['BackupReplicationRole', 'Arn'] });
    expect(replication.Rules[0]!.Destination.Bucket).toEqual({ Ref: TEMPLATE_PARAMETERS.backupDestinationBucketArn });
    expect(replication.Rules[0]!.Filter.Prefix).toBe(`${base.deploymentId}/`);
    expect(on.Resources.BackupReplicationRole!.Type).toBe('AWS::IAM::Role');
    expect(on.Parameters[TEMPLATE_PARAMETERS.backupDestinationBucketArn]!.Description).toContain('us-west-2');
    expect(on.Resources.BackupBucket!.Properties!.VersioningConfiguration).toEqual({ Status: 'Enabled' });
  });

  it('gives the manager and portal URLs as outputs', () => {
    const outputs = generateClusterTemplate(base).Outputs;
    expect(outputs[TEMPLATE_OUTPUTS.managerUrl]!.Value).toEqual({ 'Fn::Sub': 'https://${PortalAddress}/manager/' });
    expect(outputs[TEMPLATE_OUTPUTS.portalUrl]!.Value).toEqual({ 'Fn::Sub': 'https://${PortalAddress}/' });
  });

  it('keeps tag values and descriptions to the characters AWS accepts', () => {
    const template = generateClusterTemplate({ ...base, clusterName: "Ops' <test> ü" });
    const vpcTags = template.Resources.Vpc!.Properties!.Tags as { Key: string; Value: unknown }[];
    expect(vpcTags.find((t) => t.Key === TAG_KEYS.clusterName)!.Value).toBe('Ops- -test- -');
    expect(template.Resources.ClusterSecurityGroup!.Properties!.GroupDescription).toBe('Kumo cluster Ops- -test- -');
  });

  it.each([
    [{ cidr: '10.20.0.1/16' }, /Invalid CIDR/],
    [{ cidr: '10.20.0.0/27' }, /\/16 to a \/26/],
    [{ cidr: '10.0.0.0/8' }, /\/16 to a \/26/],
    [{ region: 'mars' }, /Invalid region/],
    [{ backupRegion: 'us-east-1' }, /must differ/],
    [{ kumoVersion: '1.4 beta' }, /Invalid Kumo version/],
    [{ deploymentId: '---' }, /deployment id/],
  ])('refuses unusable settings %o', (change, message) => {
    expect(() => generateClusterTemplate({ ...base, ...change })).toThrow(TemplateSettingsError);
    expect(() => generateClusterTemplate({ ...base, ...change })).toThrow(message);
  });
});
