import { Field, ID, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType({ description: 'One security event: who, what, when, from which device and address.' })
export class AuditLogEntry {
  @Field(() => ID) id!: string;
  @Field(() => ID, { nullable: true }) userId!: string | null;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field() action!: string;
  @Field(() => String, { nullable: true }) deviceId!: string | null;
  @Field(() => ID, { nullable: true }) deviceSessionId!: string | null;
  @Field(() => String, { nullable: true }) ipAddress!: string | null;
  @Field(() => String, { nullable: true }) userAgent!: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) details!: Record<string, unknown> | null;
  @Field() createdAt!: Date;
}

@ObjectType()
export class AuditLogPage {
  @Field(() => Int) total!: number;
  @Field(() => [AuditLogEntry]) items!: AuditLogEntry[];
}
