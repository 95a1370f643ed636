import { Migration } from '@mikro-orm/migrations';

/** A chapter queued for finalizing or being encoded by a background job. */
export class Migration20261128180253_chapter_finalizing extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter type "chapter_status" add value if not exists 'finalizing' after 'pending';`);
  }

  override async down(): Promise<void> {
    this.addSql(`update "chapters" set "status" = 'pending' where "status"::text = 'finalizing';`);
    this.addSql(`alter table "chapters" alter column "status" drop default;`);
    this.addSql(`alter type "chapter_status" rename to "chapter_status_old";`);
    this.addSql(`create type "chapter_status" as enum ('pending', 'ready', 'failed');`);
    this.addSql(
      `alter table "chapters" alter column "status" type "chapter_status" using "status"::text::"chapter_status";`,
    );
    this.addSql(`alter table "chapters" alter column "status" set default 'pending';`);
    this.addSql(`drop type "chapter_status_old";`);
  }
}
