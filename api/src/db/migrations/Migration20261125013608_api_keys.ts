import { Migration } from '@mikro-orm/migrations';

export class Migration20261125013608_api_keys extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "api_keys" ("id" uuid not null, "user_id" uuid not null, "name" varchar(100) not null, "secret_hash" varchar(64) not null, "scopes" text[] not null, "expires_at" timestamptz null, "rate_limit_per_minute" int not null default 600, "created_by_id" uuid null, "created_at" timestamptz not null, "revoked_at" timestamptz null, "last_used_at" timestamptz null, "last_used_ip" varchar(64) null, constraint "api_keys_pkey" primary key ("id"));`);
    this.addSql(`create index "api_keys_user_id_index" on "api_keys" ("user_id");`);

    this.addSql(`alter table "api_keys" add constraint "api_keys_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "api_keys" cascade;`);
  }

}
