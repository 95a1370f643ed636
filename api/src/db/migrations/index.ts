import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122014316_initial } from './Migration20261122014316_initial.js';
import { Migration20261125012134_listening_progress } from './Migration20261125012134_listening_progress.js';
import { Migration20261125012315_coverThumbnails } from './Migration20261125012315_coverThumbnails.js';
import { Migration20261125013608_api_keys } from './Migration20261125013608_api_keys.js';
import { Migration20261128175034_finished_at } from './Migration20261128175034_finished_at.js';
import { Migration20261128175442_collections } from './Migration20261128175442_collections.js';
import { Migration20261128175635_listening_hours } from './Migration20261128175635_listening_hours.js';
import { Migration20261128180130_catalog } from './Migration20261128180130_catalog.js';
import { Migration20261128180253_chapter_finalizing } from './Migration20261128180253_chapter_finalizing.js';

/** Listed explicitly, in order, so migrations run the same from dist/ and from Vitest. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122014316_initial', class: Migration20261122014316_initial },
  { name: 'Migration20261125012134_listening_progress', class: Migration20261125012134_listening_progress },
  { name: 'Migration20261125012315_coverThumbnails', class: Migration20261125012315_coverThumbnails },
  { name: 'Migration20261125013608_api_keys', class: Migration20261125013608_api_keys },
  { name: 'Migration20261128175034_finished_at', class: Migration20261128175034_finished_at },
  { name: 'Migration20261128175442_collections', class: Migration20261128175442_collections },
  { name: 'Migration20261128175635_listening_hours', class: Migration20261128175635_listening_hours },
  { name: 'Migration20261128180130_catalog', class: Migration20261128180130_catalog },
  { name: 'Migration20261128180253_chapter_finalizing', class: Migration20261128180253_chapter_finalizing },
];
