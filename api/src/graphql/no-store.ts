import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled } from '@apollo/server/plugin/disabled';

/**
 * Every GraphQL answer is private to its caller and never stored: `Cache-Control: no-store`, set once
 * per response. Apollo's cache-control plugin (installed unless disabled) reaches the same header by
 * hooking every field a request resolves, which cost about 0.8 ms of CPU per library page of 20.
 */
export function noStoreResponses(): ApolloServerPlugin[] {
  return [
    ApolloServerPluginCacheControlDisabled(),
    {
      async requestDidStart() {
        return {
          async willSendResponse({ response }) {
            response.http.headers.set('cache-control', 'no-store');
          },
        };
      },
    },
  ];
}
