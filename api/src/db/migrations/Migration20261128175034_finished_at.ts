import { Migration } from '@mikro-orm/migrations';

export class Migration20261128175034_finished_at extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "listening_progress" add column "finished_at" timestamptz null;`);
    this.addSql(`update "listening_progress" set "finished_at" = "updated_at" where "finished";`);
    this.addSql(`create index "listening_progress_user_id_finished_at_index" on "listening_progress" ("user_id", "finished_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "listening_progress_user_id_finished_at_index";`);
    this.addSql(`alter table "listening_progress" drop column "finished_at";`);
  }

}
