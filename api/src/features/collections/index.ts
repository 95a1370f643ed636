import { defineFeature } from '../../feature.js';
import { Collection, CollectionItem } from './collection.entity.js';
import { createCollectionLoaders } from './collection-loaders.js';
import { AudioFileWantToListenResolver, CollectionResolver, WantToListenResolver } from './collections.resolver.js';
import { collectionsRoutes } from './collections.routes.js';
import { WantToListen } from './want-to-listen.entity.js';

export const collectionsFeature = defineFeature({
  name: 'collections',
  entities: [Collection, CollectionItem, WantToListen],
  resolvers: [CollectionResolver, WantToListenResolver, AudioFileWantToListenResolver],
  loaders: createCollectionLoaders,
  routes: collectionsRoutes,
});
