import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { connectionType } from '../../graphql/connection.js';

@ObjectType({ description: 'One security event: who, what, when, from which device and address.' })
export class AuditLogEntry {
  @Field(() => ID, { description: 'The entry id; later entries have larger ids.' }) id!: string;
  @Field(() => ID, {
    nullable: true,
    description: 'The account the event is about; null once deleted or when there is none.',
  })
  userId!: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'The email of that account at the time (kept after it is deleted).',
  })
  email!: string | null;
  @Field({ description: 'What happened, as a dotted name (for example user.locked, api_key.created).' })
  action!: string;
  @Field(() => String, { nullable: true, description: 'The device id of the request, when it came from a device.' })
  deviceId!: string | null;
  @Field(() => ID, { nullable: true, description: 'The device session the event happened in, if any.' })
  deviceSessionId!: string | null;
  @Field(() => String, { nullable: true, description: 'The client address of the request.' }) ipAddress!: string | null;
  @Field(() => String, { nullable: true, description: 'The User-Agent of the request.' }) userAgent!: string | null;
  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'What else the event records, by action (ids, before and after values).',
  })
  details!: Record<string, unknown> | null;
  @Field({ description: 'When it happened.' }) createdAt!: Date;
}

@ObjectType({ description: 'One page of the audit log and how many entries it has in all.' })
export class AuditLogPage {
  @Field(() => Int, { description: 'Entries in the whole log.' }) total!: number;
  @Field(() => [AuditLogEntry], { description: 'The entries of this page, newest first.' }) items!: AuditLogEntry[];
}

export const AuditLogEntryConnection = connectionType('AuditLogEntry', () => AuditLogEntry, 'audit log entry');
