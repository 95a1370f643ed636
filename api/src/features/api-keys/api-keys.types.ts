import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ApiKeyScope } from './api-key-scopes.js';

export enum ApiKeyStatus {
  active = 'active',
  expired = 'expired',
  revoked = 'revoked',
}
registerEnumType(ApiKeyStatus, {
  name: 'ApiKeyStatus',
  description: 'Whether an API key can be used now.',
  valuesConfig: {
    active: { description: 'Usable (its user may still be locked, which refuses it too).' },
    expired: { description: 'Past its expiry: refused.' },
    revoked: { description: 'Revoked by an administrator: refused.' },
  },
});

@ObjectType({
  description: 'A service credential acting for one user within its scopes. The secret is never shown again.',
})
export class ApiKeyView {
  @Field(() => ID, { description: 'The key id.' }) id!: string;
  @Field({ description: 'What the key is for, as its creator named it.' }) name!: string;
  @Field({ description: 'The start of the key (pal_ and 8 characters), to tell keys apart.' }) prefix!: string;
  @Field(() => [ApiKeyScope], { description: 'What the key may be used for.' }) scopes!: ApiKeyScope[];
  @Field(() => ID, { description: 'The user the key acts for.' }) userId!: string;
  @Field({ description: "That user's email." }) userEmail!: string;
  @Field(() => ApiKeyStatus, { description: 'Whether the key can be used now.' }) status!: ApiKeyStatus;
  @Field(() => Int, { description: 'Requests the key may make per minute.' }) rateLimitPerMinute!: number;
  @Field({ description: 'When the key was created.' }) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When the key stops working; null: never.' })
  expiresAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'When the key was revoked.' }) revokedAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'Last use, to the minute.' }) lastUsedAt!: Date | null;
  @Field(() => String, { nullable: true, description: 'The address of the last use.' }) lastUsedIp!: string | null;
}

@ObjectType({ description: 'A new API key and its secret, shown this once.' })
export class CreatedApiKey {
  @Field(() => ApiKeyView, { description: 'The key as lists show it.' }) apiKey!: ApiKeyView;
  @Field({ description: 'The whole key (pal_...), to send as `Authorization: Bearer <secret>`. Shown once.' })
  secret!: string;
}

@InputType({ description: 'A new API key.' })
export class CreateApiKeyInput {
  @Field({ description: 'What the key is for (1 to 100 characters).' }) name!: string;
  @Field(() => ID, { description: 'The user the key acts for; it never does more than that user may.' })
  userId!: string;
  @Field(() => [ApiKeyScope], { description: 'What the key may be used for (at least one).' }) scopes!: ApiKeyScope[];
  @Field(() => Date, { nullable: true, description: 'When the key stops working; omitted: never.' })
  expiresAt?: Date | null;
  @Field(() => Int, { nullable: true, description: 'Requests per minute, 1 to 10000 (default 600).' })
  rateLimitPerMinute?: number | null;
}

@ObjectType({ description: 'An API key scope and what it takes.' })
export class ApiKeyScopeInfo {
  @Field(() => ApiKeyScope, { description: 'The scope, as GraphQL names it.' }) scope!: ApiKeyScope;
  @Field({ description: 'The scope as REST and docs/api.md write it (for example library:read).' }) name!: string;
  @Field({ description: 'What it allows.' }) description!: string;
  @Field({ description: "Only an administrator's key may have it." }) adminOnly!: boolean;
  @Field({
    description: 'Always false: every scope can be given to a key.',
    deprecationReason: 'No scope is reserved any more: the stream scope is given like the others.',
  })
  reserved!: boolean;
}
