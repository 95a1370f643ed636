import { tags } from '../http/contract.js';
import { openApiRoute } from '../http/openapi.js';
import type { Route } from '../http/route.js';
import { features } from './features.js';

const tagOrder: readonly string[] = Object.keys(tags);

/**
 * Every REST /api/v1 route, from the features' manifests, grouped as the OpenAPI document lists
 * its tags (a feature's routes keep their own order). The Express router, the byte server, the
 * API-key scope guard and the document are all made from this one list; which route answers a
 * path does not depend on the order (http/path-match.ts).
 */
export const apiRoutes: readonly Route[] = [
  ...features
    .flatMap((feature): readonly Route[] => feature.routes ?? [])
    .sort((a, b) => tagOrder.indexOf(a.tag) - tagOrder.indexOf(b.tag)),
  openApiRoute(() => apiRoutes),
];
