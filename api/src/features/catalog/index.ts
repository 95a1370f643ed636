import { defineFeature } from '../../feature.js';
import { createCatalogLoaders } from './catalog-loaders.js';
import { AudioFileBookResolver, CatalogResolver } from './catalog.resolver.js';
import { catalogRoutes } from './catalog.routes.js';
import { BookCredit, Person } from './person.entity.js';
import { BookDetails, Series } from './series.entity.js';

/** Authors, narrators, series and genres of the books, read from their tags and edited by administrators. */
export const catalogFeature = defineFeature({
  name: 'catalog',
  entities: [Person, BookCredit, Series, BookDetails],
  resolvers: [CatalogResolver, AudioFileBookResolver],
  loaders: createCatalogLoaders,
  routes: catalogRoutes,
});
