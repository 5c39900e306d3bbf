export * from './cidr.js';
export * from './cluster-template.js';
export * from './node-layout.js';
export * from './template-references.js';
