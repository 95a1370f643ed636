import { defineFeature } from '../../feature.js';
import { ChapterKey } from './chapter-key.entity.js';
import { ChapterSegment } from './chapter-segment.entity.js';
import { Chapter } from './chapter.entity.js';
import { ChapterResolver } from './chapter.resolver.js';
import { chapterRoutes } from './chapter.routes.js';
import { resumeFinalizing } from './finalize-recovery.js';

export const chaptersFeature = defineFeature({
  name: 'chapters',
  entities: [Chapter, ChapterKey, ChapterSegment],
  resolvers: [ChapterResolver],
  routes: chapterRoutes,
  background: ({ orm, deps }) => resumeFinalizing(orm, deps),
});
