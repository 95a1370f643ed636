import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GqlContext } from '../../graphql/context.js';
import * as apiKeys from './api-keys.service.js';
import { ApiKeyScopeInfo, ApiKeyView, CreateApiKeyInput, CreatedApiKey } from './api-keys.types.js';
import { DeviceOnly } from '../../graphql/scopes.js';

@Resolver()
export class ApiKeysResolver {
  @DeviceOnly()
  @Query(() => [ApiKeyView], { description: 'Administrators: every API key, newest first.' })
  apiKeys(@Ctx() ctx: GqlContext): Promise<ApiKeyView[]> {
    return apiKeys.listApiKeys(ctx);
  }

  @DeviceOnly()
  @Query(() => [ApiKeyScopeInfo], { description: 'Administrators: every API key scope and what it takes.' })
  apiKeyScopes(@Ctx() ctx: GqlContext): apiKeys.ApiKeyScopeView[] {
    return apiKeys.listApiKeyScopes(ctx);
  }

  @DeviceOnly()
  @Mutation(() => CreatedApiKey, {
    description:
      'Administrators, signed in on a device: create an API key for a user. Its secret is in this answer only.',
  })
  createApiKey(
    @Arg('input', () => CreateApiKeyInput, { description: 'The key to create.' }) input: CreateApiKeyInput,
    @Ctx() ctx: GqlContext,
  ): Promise<CreatedApiKey> {
    return apiKeys.createApiKey(ctx, input);
  }

  @DeviceOnly()
  @Mutation(() => ApiKeyView, {
    description: 'Administrators: revoke an API key; it is refused from its next request on.',
  })
  revokeApiKey(
    @Arg('id', () => ID, { description: 'The key id.' }) id: string,
    @Ctx() ctx: GqlContext,
  ): Promise<ApiKeyView> {
    return apiKeys.revokeApiKey(ctx, id);
  }
}
