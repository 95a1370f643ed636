/**
 * The committed migrations' names, in order: what a database has applied when it is current.
 * Apart from index.ts so a start can check them without loading the migrator (the test in
 * migrations.test.ts keeps the two lists equal).
 */
export const migrationNames = [
  'Migration20261122014316_initial',
  'Migration20261125012134_listening_progress',
  'Migration20261125012315_coverThumbnails',
  'Migration20261125013608_api_keys',
  'Migration20261128175034_finished_at',
  'Migration20261128175442_collections',
  'Migration20261128175635_listening_hours',
  'Migration20261128180130_catalog',
  'Migration20261128180253_chapter_finalizing',
];
