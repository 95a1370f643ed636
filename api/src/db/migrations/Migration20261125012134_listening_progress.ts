import { Migration } from '@mikro-orm/migrations';

export class Migration20261125012134_listening_progress extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "listening_progress" ("user_id" uuid not null, "file_id" uuid not null, "position" double precision not null, "finished" boolean not null default false, "updated_at" timestamptz not null, constraint "listening_progress_pkey" primary key ("user_id", "file_id"));`);
    this.addSql(`create index "listening_progress_user_id_updated_at_index" on "listening_progress" ("user_id", "updated_at");`);

    this.addSql(`alter table "listening_progress" add constraint "listening_progress_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "listening_progress" add constraint "listening_progress_file_id_foreign" foreign key ("file_id") references "audio_files" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "listening_progress" cascade;`);
  }

}
