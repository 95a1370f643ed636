import { Migration } from '@mikro-orm/migrations';

export class Migration20261128180130_catalog extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create type "credit_role" as enum ('author', 'narrator');`);
    this.addSql(`create table "people" ("id" uuid not null, "name" varchar(200) not null, "name_key" varchar(200) not null, "created_at" timestamptz not null, constraint "people_pkey" primary key ("id"));`);
    this.addSql(`alter table "people" add constraint "people_name_key_unique" unique ("name_key");`);

    this.addSql(`create table "series" ("id" uuid not null, "name" varchar(200) not null, "name_key" varchar(200) not null, "created_at" timestamptz not null, constraint "series_pkey" primary key ("id"));`);
    this.addSql(`alter table "series" add constraint "series_name_key_unique" unique ("name_key");`);

    this.addSql(`create table "book_details" ("file_id" uuid not null, "subtitle" varchar(200) null, "year" smallint null, "publisher" varchar(200) null, "language" varchar(50) null, "genres" text[] not null default '{}', "series_id" uuid null, "series_position" varchar(20) null, constraint "book_details_pkey" primary key ("file_id"));`);
    this.addSql(`create index "book_details_series_id_index" on "book_details" ("series_id");`);
    this.addSql(`create index "book_details_genres_index" on "book_details" using gin ("genres");`);

    this.addSql(`create table "book_credits" ("id" uuid not null, "file_id" uuid not null, "person_id" uuid not null, "role" "credit_role" not null, "position" smallint not null, constraint "book_credits_pkey" primary key ("id"));`);
    this.addSql(`create index "book_credits_person_id_role_index" on "book_credits" ("person_id", "role");`);
    this.addSql(`alter table "book_credits" add constraint "book_credits_file_id_role_person_id_unique" unique ("file_id", "role", "person_id");`);

    this.addSql(`alter table "book_details" add constraint "book_details_file_id_foreign" foreign key ("file_id") references "audio_files" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "book_details" add constraint "book_details_series_id_foreign" foreign key ("series_id") references "series" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "book_credits" add constraint "book_credits_file_id_foreign" foreign key ("file_id") references "audio_files" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "book_credits" add constraint "book_credits_person_id_foreign" foreign key ("person_id") references "people" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "book_credits" drop constraint "book_credits_person_id_foreign";`);

    this.addSql(`alter table "book_details" drop constraint "book_details_series_id_foreign";`);

    this.addSql(`drop table if exists "people" cascade;`);

    this.addSql(`drop table if exists "series" cascade;`);

    this.addSql(`drop table if exists "book_details" cascade;`);

    this.addSql(`drop table if exists "book_credits" cascade;`);

    this.addSql(`drop type "credit_role";`);
  }

}
