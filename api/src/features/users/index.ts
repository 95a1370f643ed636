import { defineFeature } from '../../feature.js';
import { UserSessionsResolver } from './user-sessions.resolver.js';
import { User } from './user.entity.js';
import { UsersResolver } from './users.resolver.js';
import { usersRoutes } from './users.routes.js';

export const usersFeature = defineFeature({
  name: 'users',
  entities: [User],
  resolvers: [UsersResolver, UserSessionsResolver],
  routes: usersRoutes,
});
