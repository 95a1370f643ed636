import { defineFeature } from '../../feature.js';
import { AuditEntry } from './audit-entry.entity.js';
import { AuditResolver } from './audit.resolver.js';

export const auditFeature = defineFeature({
  name: 'audit',
  entities: [AuditEntry],
  resolvers: [AuditResolver],
});
