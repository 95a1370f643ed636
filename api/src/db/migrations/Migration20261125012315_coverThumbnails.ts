import { Migration } from '@mikro-orm/migrations';

export class Migration20261125012315_coverThumbnails extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "covers" add column "thumbnail_path" varchar(512) null, add column "thumbnail" bytea null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "covers" drop column "thumbnail_path", drop column "thumbnail";`);
  }

}
