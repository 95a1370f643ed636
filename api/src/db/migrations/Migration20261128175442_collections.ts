import { Migration } from '@mikro-orm/migrations';

export class Migration20261128175442_collections extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "collections" ("id" uuid not null, "name" varchar(200) not null, "description" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "collections_pkey" primary key ("id"));`);

    this.addSql(`create table "collection_items" ("collection_id" uuid not null, "file_id" uuid not null, "position" int not null, "added_at" timestamptz not null, constraint "collection_items_pkey" primary key ("collection_id", "file_id"));`);
    this.addSql(`create index "collection_items_file_id_index" on "collection_items" ("file_id");`);
    this.addSql(`create index "collection_items_collection_id_position_index" on "collection_items" ("collection_id", "position");`);

    this.addSql(`create table "want_to_listen" ("user_id" uuid not null, "file_id" uuid not null, "added_at" timestamptz not null, constraint "want_to_listen_pkey" primary key ("user_id", "file_id"));`);
    this.addSql(`create index "want_to_listen_file_id_index" on "want_to_listen" ("file_id");`);
    this.addSql(`create index "want_to_listen_user_id_added_at_index" on "want_to_listen" ("user_id", "added_at");`);

    this.addSql(`alter table "collection_items" add constraint "collection_items_collection_id_foreign" foreign key ("collection_id") references "collections" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "collection_items" add constraint "collection_items_file_id_foreign" foreign key ("file_id") references "audio_files" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "want_to_listen" add constraint "want_to_listen_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "want_to_listen" add constraint "want_to_listen_file_id_foreign" foreign key ("file_id") references "audio_files" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "collection_items" drop constraint "collection_items_collection_id_foreign";`);

    this.addSql(`drop table if exists "collections" cascade;`);

    this.addSql(`drop table if exists "collection_items" cascade;`);

    this.addSql(`drop table if exists "want_to_listen" cascade;`);
  }

}
