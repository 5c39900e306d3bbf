/**
 * Lists every name a CloudFormation document refers to (Ref, Fn::GetAtt, Fn::Sub variables,
 * DependsOn, Fn::If conditions) and checks each against what the document defines. Used by the
 * template's tests and available to anyone who wants to vet a document before sending it.
 */
import type { CloudFormationTemplate } from './cluster-template.js';

export interface TemplateReference {
  kind: 'Ref' | 'Fn::GetAtt' | 'Fn::Sub' | 'DependsOn' | 'Condition';
  name: string;
  /** Path of the reference in the document, e.g. Resources.Vpc.Properties.Tags.0.Value. */
  path: string;
}

/** Every reference of the document, found by walking its whole tree. */
export function collectReferences(template: CloudFormationTemplate): TemplateReference[] {
  const found: TemplateReference[] = [];
  const walk = (node: unknown, path: string, locals: ReadonlySet<string>) => {
    if (Array.isArray(node)) {
      node.forEach((child, i) => walk(child, `${path}.${i}`, locals));
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      const here = `${path}.${key}`;
      if (key === 'Ref' && typeof value === 'string') found.push({ kind: 'Ref', name: value, path: here });
      else if (key === 'Fn::GetAtt') {
        const target: unknown = Array.isArray(value)
          ? (value as unknown[])[0]
          : typeof value === 'string'
            ? value.split('.')[0]
            : undefined;
        if (typeof target === 'string') found.push({ kind: 'Fn::GetAtt', name: target, path: here });
        else walk(value, here, locals);
      } else if (key === 'Fn::Sub') {
        const [text, variables] = (Array.isArray(value) ? value : [value, {}]) as [unknown, unknown];
        const own = new Set([...locals, ...Object.keys(variables ?? {})]);
        if (typeof text === 'string') {
          for (const name of subVariables(text)) if (!own.has(name)) found.push({ kind: 'Fn::Sub', name, path: here });
        }
        walk(variables, `${here}.1`, locals);
      } else if (key === 'Fn::If' && Array.isArray(value)) {
        if (typeof value[0] === 'string') found.push({ kind: 'Condition', name: value[0], path: here });
        walk(value.slice(1), here, locals);
      } else if (key === 'Condition' && typeof value === 'string' && path.split('.').length <= 2) {
        found.push({ kind: 'Condition', name: value, path: here });
      } else if (key === 'DependsOn' && path.split('.').length === 2) {
        for (const name of [value].flat()) if (typeof name === 'string') found.push({ kind: 'DependsOn', name, path: here });
      } else walk(value, here, locals);
    }
  };
  for (const section of ['Conditions', 'Resources', 'Outputs'] as const) walk(template[section], section, new Set());
  return found;
}

/** Names a Fn::Sub string refers to: ${Name} and ${Resource.Attribute}; ${!Literal} is not one. */
export function subVariables(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/\$\{([^}]*)\}/g)) {
    const inner = match[1]!.trim();
    if (inner.startsWith('!')) continue;
    names.push(inner.includes('.') && !inner.startsWith('AWS::') ? inner.split('.')[0]! : inner);
  }
  return names;
}

const PSEUDO_PARAMETERS = new Set([
  'AWS::AccountId',
  'AWS::NotificationARNs',
  'AWS::NoValue',
  'AWS::Partition',
  'AWS::Region',
  'AWS::StackId',
  'AWS::StackName',
  'AWS::URLSuffix',
]);

/** References that point at nothing the document defines (empty when the document is sound). */
export function danglingReferences(template: CloudFormationTemplate): TemplateReference[] {
  const parameters = new Set(Object.keys(template.Parameters ?? {}));
  const resources = new Set(Object.keys(template.Resources ?? {}));
  const conditions = new Set(Object.keys(template.Conditions ?? {}));
  return collectReferences(template).filter((r) => {
    switch (r.kind) {
      case 'Ref':
      case 'Fn::Sub':
        return !(PSEUDO_PARAMETERS.has(r.name) || parameters.has(r.name) || resources.has(r.name));
      case 'Fn::GetAtt':
      case 'DependsOn':
        return !resources.has(r.name);
      case 'Condition':
        return !conditions.has(r.name);
    }
  });
}
